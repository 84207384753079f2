import { and, desc, eq, gt } from "drizzle-orm";
import { apiTokens, type ApiToken } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";
import { isCapability, type Capability } from "../../utils/capabilities";
import { hashToken, randomToken } from "./secrets.server";
import { SESSION_LIFETIME_SECONDS } from "./session.server";

const DAY_MS = 24 * 60 * 60 * 1000;
/** docs/product.md §9 and docs/security.md "Numbers": API tokens, like sessions, live 30 days (2,592,000 s) at most. */
export const MAX_TOKEN_DAYS = (SESSION_LIFETIME_SECONDS * 1000) / DAY_MS;
export const DEFAULT_TOKEN_DAYS = MAX_TOKEN_DAYS;
/** last_used_at is written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Makes a token holding `capabilities`, which must all be within `ceiling` (what its creator may do):
 * nobody can hand out more than they hold. The token is returned once; only its hash is kept. Its
 * lifetime is clamped here to 1–30 days, whatever a caller asks: the routes refuse a longer one with a
 * message, and this is what holds for any other path.
 */
export function createApiToken(
  db: TenantConn,
  {
    userId,
    name,
    capabilities,
    ceiling,
    days = DEFAULT_TOKEN_DAYS,
    notAfter,
    now = new Date(),
  }: {
    userId: number | null;
    name: string;
    capabilities: Capability[];
    ceiling: ReadonlySet<Capability>;
    days?: number;
    /** A token made by a token lives no longer than its maker. */
    notAfter?: Date;
    now?: Date;
  },
): { token: string; apiToken: ApiToken } | { error: "beyond_own_capabilities"; capabilities: Capability[] } {
  const beyond = capabilities.filter((c) => !ceiling.has(c));
  if (beyond.length > 0) return { error: "beyond_own_capabilities", capabilities: beyond };
  const token = randomToken();
  const apiToken = db
    .insert(apiTokens)
    .values({
      userId,
      name,
      tokenHash: hashToken(token),
      capabilities: [...new Set(capabilities)].sort(),
      createdAt: now,
      expiresAt: new Date(Math.min(now.getTime() + tokenDays(days) * DAY_MS, notAfter?.getTime() ?? Infinity)),
    })
    .returning()
    .get();
  return { token, apiToken };
}

/** A lifetime within what the spec allows; anything that is not a number of days gets the default. */
function tokenDays(days: number) {
  if (!Number.isFinite(days)) return DEFAULT_TOKEN_DAYS;
  return Math.min(Math.max(days, 1), MAX_TOKEN_DAYS);
}

/** The live token for a secret, noting its use; null when unknown or expired. */
export function findApiToken(db: TenantConn, token: string, now = new Date()): ApiToken | null {
  if (!token || token.length > 200) return null;
  const row = db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), gt(apiTokens.expiresAt, now)))
    .get();
  if (!row) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    try {
      db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id)).run();
    } catch {
      // last_used_at is informational; a busy database must not refuse the call
    }
  }
  return row;
}

export function tokenCapabilities(token: ApiToken): Capability[] {
  return token.capabilities.filter(isCapability);
}

/** Tokens an admin may see: every token of the organization (they are the organization's keys). */
export function listApiTokens(db: TenantConn) {
  return db.select().from(apiTokens).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id)).all();
}

export function revokeApiToken(db: TenantConn, id: number) {
  return db.delete(apiTokens).where(eq(apiTokens.id, id)).run().changes > 0;
}

export function apiTokenView(token: ApiToken) {
  return {
    id: token.id,
    name: token.name,
    user_id: token.userId,
    capabilities: tokenCapabilities(token),
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt.toISOString(),
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
  };
}
