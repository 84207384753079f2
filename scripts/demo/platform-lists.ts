import { eq } from "drizzle-orm";
import { createApiToken } from "../../app/models/auth/api-token.server";
import { createXapiCredential, revokeXapiCredential } from "../../app/models/xapi/credentials.server";
import { CAPABILITIES, type Capability } from "../../app/utils/capabilities";
import type { TenantDb } from "../../db/open";
import { apiTokens, users } from "../../db/tenant";

/**
 * Rows for the API tokens and LRS credentials lists (issue 50), so each shows its filters at work: tokens made by
 * the organization's admin and by the organization (a super-admin), used and never used, one expired (a revoked
 * token is deleted, so none is shown revoked); and beside the LRS's two live credentials (scripts/demo/xapi.ts) one
 * revoked and one expired. Times come from `now`; the secrets are not kept.
 */
const DAY = 86_400_000;

const TEXTS = {
  en: {
    intranet: "Intranet sync",
    reports: "Reporting dashboard",
    app: "Mobile app (pilot)",
    hr: "Old HR import",
    oldTool: "Old authoring tool",
    trial: "Simulator trial",
  },
  da: {
    intranet: "Intranet-synkronisering",
    reports: "Rapport-dashboard",
    app: "Mobilapp (pilot)",
    hr: "Gammel HR-import",
    oldTool: "Gammelt forfatterværktøj",
    trial: "Simulator-prøve",
  },
};

export function seedPlatformListsDemo(
  db: TenantDb,
  { language, adminEmail, now = new Date() }: { language: "en" | "da"; adminEmail: string; now?: Date },
) {
  const text = TEXTS[language];
  const admin = db.select({ id: users.id }).from(users).where(eq(users.email, adminEmail)).get();
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  const tokens: { name: string; mine: boolean; capabilities: Capability[]; made: number; days: number; used: number | null }[] = [
    { name: text.intranet, mine: true, capabilities: ["read:group", "read:user", "write:user"], made: 20, days: 30, used: 0.05 },
    { name: text.reports, mine: false, capabilities: ["read:analytics", "read:course"], made: 3, days: 30, used: 2 },
    { name: text.app, mine: true, capabilities: ["learn:course", "read:course"], made: 5, days: 30, used: null },
    { name: text.hr, mine: false, capabilities: ["write:user"], made: 50, days: 30, used: 25 },
  ];
  for (const token of tokens) {
    const made = createApiToken(db, {
      userId: token.mine ? (admin?.id ?? null) : null,
      name: token.name,
      capabilities: token.capabilities,
      ceiling: new Set(CAPABILITIES),
      days: token.days,
      now: ago(token.made),
    });
    if ("error" in made || token.used === null) continue;
    db.update(apiTokens)
      .set({ lastUsedAt: ago(token.used) })
      .where(eq(apiTokens.id, made.apiToken.id))
      .run();
  }
  const old = createXapiCredential(db, { name: text.oldTool, scope: "write", version: "1.0.3", userId: null, days: 365, now: ago(60) });
  if (!("error" in old)) revokeXapiCredential(db, old.credential.id, ago(10));
  createXapiCredential(db, { name: text.trial, scope: "all", version: "2.0.0", userId: admin?.id ?? null, days: 14, now: ago(40) });
}
