import { and, desc, eq, gt } from "drizzle-orm";
import { apiTokens, type ApiToken } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";
import { isCapability, type Capability } from "../../utils/capabilities";
import { hashToken, randomToken } from "./secrets.server";

export const DEFAULT_TOKEN_DAYS = 30;
export const MAX_TOKEN_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;
/** last_used_at is written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Makes a token holding `capabilities`, which must all be within `ceiling` (what its creator may do):
 * nobody can hand out more than they hold. The token is returned once; only its hash is kept.
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
      expiresAt: new Date(Math.min(now.getTime() + Math.min(days, MAX_TOKEN_DAYS) * DAY_MS, notAfter?.getTime() ?? Infinity)),
    })
    .returning()
    .get();
  return { token, apiToken };
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
