import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { SESSION_KINDS } from "../auth-columns";
import { id, timestamps } from "../columns";
import { SSO_DRIVER_KINDS, USER_ROLES } from "../vocabulary";
import { users } from "./people";

/* Single sign-on (issue 17, docs/decisions/019-sso.md). */

/**
 * An identity provider people of this organization may sign in with: OpenID Connect (issuer with
 * discovery) or plain OAuth2 (three addresses and the claims that name a person). The client secret is
 * sealed (AES-256-GCM) with the server's key and never leaves the server in the clear.
 */
export const ssoDrivers = sqliteTable(
  "sso_drivers",
  {
    id: id(),
    /** Names the driver in addresses: /auth/sso/{slug}/callback. */
    slug: text("slug").notNull(),
    kind: text("kind", { enum: SSO_DRIVER_KINDS }).notNull(),
    label: text("label").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** OpenID Connect: the issuer; its /.well-known/openid-configuration is read. */
    issuer: text("issuer"),
    /** Plain OAuth2: the provider's addresses. */
    authorizationUrl: text("authorization_url"),
    tokenUrl: text("token_url"),
    userinfoUrl: text("userinfo_url"),
    clientId: text("client_id").notNull(),
    /** `v1.<iv>.<tag>.<ciphertext>`, sealed with the server's key for this organization. */
    clientSecretSealed: text("client_secret_sealed").notNull(),
    scopes: text("scopes").notNull().default("openid email profile"),
    /** Which claims give the subject, e-mail and names (plain OAuth2; OIDC uses the standard ones). */
    subjectClaim: text("subject_claim").notNull().default("sub"),
    emailClaim: text("email_claim").notNull().default("email"),
    firstNameClaim: text("first_name_claim").notNull().default("given_name"),
    lastNameClaim: text("last_name_claim").notNull().default("family_name"),
    /** Just-in-time: create a person on their first sign-in; otherwise only existing people get in. */
    createUsers: integer("create_users", { mode: "boolean" }).notNull().default(false),
    defaultRole: text("default_role", { enum: USER_ROLES }).notNull().default("learner"),
    /** JSON array of group ids new people join. */
    defaultGroupIds: text("default_group_ids").notNull().default("[]"),
    /** People who sign in this way cannot edit their name, e-mail or password (docs/product.md §4). */
    managedExternally: integer("managed_externally", { mode: "boolean" }).notNull().default(true),
    /** Link to an existing person by e-mail, when the provider says the e-mail is verified. */
    linkByEmail: integer("link_by_email", { mode: "boolean" }).notNull().default(false),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [uniqueIndex("sso_drivers_slug_unique").on(t.slug), check("sso_drivers_kind_check", sql`${t.kind} in ('oidc','oauth2')`)],
);

export type SsoDriver = typeof ssoDrivers.$inferSelect;

/** Who a provider says someone is: the pair (issuer, subject), tied to one person of this organization. */
export const ssoIdentities = sqliteTable(
  "sso_identities",
  {
    id: id(),
    driverId: integer("driver_id")
      .notNull()
      .references(() => ssoDrivers.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [uniqueIndex("sso_identities_issuer_subject_unique").on(t.issuer, t.subject), index("sso_identities_user_idx").on(t.userId)],
);

/**
 * A sign-in on its way to the provider: the state (stored hashed), the PKCE verifier and nonce, bound to
 * the browser (a random value in a cookie) or to the app (a value only the app was given). Single use,
 * 10 minutes.
 */
export const ssoLogins = sqliteTable(
  "sso_logins",
  {
    id: id(),
    stateHash: text("state_hash").notNull(),
    driverId: integer("driver_id")
      .notNull()
      .references(() => ssoDrivers.id, { onDelete: "cascade" }),
    bindingHash: text("binding_hash").notNull(),
    kind: text("kind", { enum: SESSION_KINDS }).notNull(),
    codeVerifier: text("code_verifier").notNull(),
    nonce: text("nonce").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    redirectTo: text("redirect_to").notNull().default(""),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [uniqueIndex("sso_logins_state_unique").on(t.stateHash), index("sso_logins_expires_idx").on(t.expiresAt)],
);

/** Which sign-in methods are on; one row (id 1), absent means e-mail and password are on. */
export const ssoSettings = sqliteTable(
  "sso_settings",
  {
    id: integer("id").primaryKey(),
    passwordLogin: integer("password_login", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [check("sso_settings_single_row", sql`${t.id} = 1`)],
);
