import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../../db/open";
import { groups, ssoDrivers, ssoSettings, type SsoDriver } from "../../../db/tenant";
import { ssoDriverSchema } from "../forms/sso";
import type { SecretBox } from "./seal.server";

/** The scope a driver's secret is sealed for: its organization, so a copied value opens nowhere else. */
export const secretScope = (organizationId: number) => `sso:org-${organizationId}`;

export { ssoDriverSchema };

export type SsoDriverInput = z.infer<typeof ssoDriverSchema>;

export function listDrivers(db: TenantConn, { enabledOnly = false } = {}) {
  return db
    .select()
    .from(ssoDrivers)
    .where(enabledOnly ? eq(ssoDrivers.enabled, true) : undefined)
    .orderBy(asc(ssoDrivers.position), asc(ssoDrivers.id))
    .all();
}

export function getDriver(db: TenantConn, id: number) {
  return db.select().from(ssoDrivers).where(eq(ssoDrivers.id, id)).get();
}

export function getDriverBySlug(db: TenantConn, slug: string) {
  if (!/^[a-z0-9-]{1,40}$/.test(slug)) return undefined;
  return db.select().from(ssoDrivers).where(eq(ssoDrivers.slug, slug)).get();
}

/** Whether e-mail and password (and sign-in links) are on; they are unless an admin turned them off. */
export function passwordLoginEnabled(db: TenantConn) {
  return db.select().from(ssoSettings).where(eq(ssoSettings.id, 1)).get()?.passwordLogin ?? true;
}

export type SettingsProblem = "needs_driver";

/** Turning e-mail and password off needs at least one enabled driver, or nobody could sign in. */
export function setPasswordLogin(db: TenantConn, on: boolean): SettingsProblem | null {
  return db.transaction((tx) => {
    if (!on && listDrivers(tx, { enabledOnly: true }).length === 0) return "needs_driver";
    tx.insert(ssoSettings)
      .values({ id: 1, passwordLogin: on })
      .onConflictDoUpdate({ target: ssoSettings.id, set: { passwordLogin: on } })
      .run();
    return null;
  });
}

export type DriverProblems = Partial<Record<keyof SsoDriverInput, string[]>> & { _?: string[] };

function checkDriver(db: TenantConn, input: SsoDriverInput, exceptId: number | null, hasSecret: boolean): DriverProblems {
  const problems: DriverProblems = {};
  const taken = db
    .select({ id: ssoDrivers.id })
    .from(ssoDrivers)
    .where(exceptId === null ? eq(ssoDrivers.slug, input.slug) : and(eq(ssoDrivers.slug, input.slug), ne(ssoDrivers.id, exceptId)))
    .get();
  if (taken) problems.slug = ["sso.errors.slugTaken"];
  if (!input.clientSecret && !hasSecret) problems.clientSecret = ["validation.required"];
  if (input.defaultGroupIds.length) {
    const found = db.select({ id: groups.id }).from(groups).where(inArray(groups.id, input.defaultGroupIds)).all();
    if (found.length !== new Set(input.defaultGroupIds).size) problems.defaultGroupIds = ["validation.invalidOption"];
  }
  return problems;
}

function values(input: SsoDriverInput) {
  const oidc = input.kind === "oidc";
  return {
    slug: input.slug,
    kind: input.kind,
    label: input.label,
    enabled: input.enabled,
    issuer: oidc ? input.issuer.replace(/\/+$/, "") || null : null,
    authorizationUrl: oidc ? null : input.authorizationUrl,
    tokenUrl: oidc ? null : input.tokenUrl,
    userinfoUrl: oidc ? null : input.userinfoUrl,
    clientId: input.clientId,
    scopes: input.scopes || (oidc ? "openid email profile" : ""),
    subjectClaim: input.subjectClaim,
    emailClaim: input.emailClaim,
    firstNameClaim: input.firstNameClaim,
    lastNameClaim: input.lastNameClaim,
    createUsers: input.createUsers,
    defaultRole: input.defaultRole,
    defaultGroupIds: JSON.stringify([...new Set(input.defaultGroupIds)]),
    managedExternally: input.managedExternally,
    linkByEmail: input.linkByEmail,
  };
}

export function addDriver(
  db: TenantConn,
  box: SecretBox,
  organizationId: number,
  input: SsoDriverInput,
): { ok: true; driver: SsoDriver } | { ok: false; problems: DriverProblems } {
  return db.transaction((tx) => {
    const problems = checkDriver(tx, input, null, false);
    if (Object.keys(problems).length) return { ok: false as const, problems };
    const driver = tx
      .insert(ssoDrivers)
      .values({
        ...values(input),
        clientSecretSealed: box.seal(input.clientSecret, secretScope(organizationId)),
        position: listDrivers(tx).length,
      })
      .returning()
      .get();
    return { ok: true as const, driver };
  });
}

export function editDriver(
  db: TenantConn,
  box: SecretBox,
  organizationId: number,
  id: number,
  input: SsoDriverInput,
): { ok: true; driver: SsoDriver } | { ok: false; problems: DriverProblems } | null {
  return db.transaction((tx) => {
    const existing = getDriver(tx, id);
    if (!existing) return null;
    const problems = checkDriver(tx, input, id, true);
    if (!input.enabled && existing.enabled && !lastDriverMayGo(tx, id)) problems.enabled = ["sso.errors.lastDriver"];
    if (Object.keys(problems).length) return { ok: false as const, problems };
    const secret = input.clientSecret ? { clientSecretSealed: box.seal(input.clientSecret, secretScope(organizationId)) } : {};
    const driver = tx
      .update(ssoDrivers)
      .set({ ...values(input), ...secret })
      .where(eq(ssoDrivers.id, id))
      .returning()
      .get();
    return { ok: true as const, driver };
  });
}

/** With e-mail and password off, the last enabled driver cannot go: someone must be able to sign in. */
function lastDriverMayGo(db: TenantConn, id: number) {
  if (passwordLoginEnabled(db)) return true;
  return listDrivers(db, { enabledOnly: true }).some((d) => d.id !== id);
}

export function deleteDriver(db: TenantConn, id: number): "deleted" | "not_found" | "last_driver" {
  return db.transaction((tx) => {
    const existing = getDriver(tx, id);
    if (!existing) return "not_found" as const;
    if (existing.enabled && !lastDriverMayGo(tx, id)) return "last_driver" as const;
    tx.delete(ssoDrivers).where(eq(ssoDrivers.id, id)).run();
    return "deleted" as const;
  });
}

/** A driver as an admin's form shows it: everything but the secret, of which only its presence shows. */
export function driverFormValues(driver: SsoDriver) {
  return {
    kind: driver.kind,
    slug: driver.slug,
    label: driver.label,
    enabled: driver.enabled ? "on" : "",
    issuer: driver.issuer ?? "",
    authorizationUrl: driver.authorizationUrl ?? "",
    tokenUrl: driver.tokenUrl ?? "",
    userinfoUrl: driver.userinfoUrl ?? "",
    clientId: driver.clientId,
    clientSecret: "",
    scopes: driver.scopes,
    subjectClaim: driver.subjectClaim,
    emailClaim: driver.emailClaim,
    firstNameClaim: driver.firstNameClaim,
    lastNameClaim: driver.lastNameClaim,
    createUsers: driver.createUsers ? "on" : "",
    defaultRole: driver.defaultRole,
    defaultGroupIds: parseGroupIds(driver.defaultGroupIds).map(String),
    managedExternally: driver.managedExternally ? "on" : "",
    linkByEmail: driver.linkByEmail ? "on" : "",
  };
}

export function parseGroupIds(value: string): number[] {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((v): v is number => Number.isSafeInteger(v)) : [];
  } catch {
    return [];
  }
}

/** What the sign-in page shows: the enabled drivers' buttons, and whether the password form is on. */
export function signInOptions(db: TenantConn) {
  return {
    passwordLogin: passwordLoginEnabled(db),
    drivers: listDrivers(db, { enabledOnly: true }).map((d) => ({ slug: d.slug, label: d.label })),
  };
}
