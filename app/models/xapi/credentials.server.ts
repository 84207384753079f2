import crypto from "node:crypto";
import { and, desc, eq, gt, isNull, or } from "drizzle-orm";
import { xapiCredentials, type XapiCredential, type XapiScope } from "../../../db/tenant";
import type { XapiVersion } from "./statements.server";
import type { TenantConn } from "../../../db/open";
import { hashToken, randomToken } from "../auth/secrets.server";
import { agentKey } from "./agents";

/*
 * The LRS's HTTP Basic credentials (docs/decisions/043-learning-record-store.md, "Credentials"): a public key
 * (the user name) and a secret of 256 random bits, shown once and kept as its SHA-256, a scope, an expiry.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_CREDENTIAL_DAYS = 30;
export const MAX_CREDENTIAL_DAYS = 365;
/** last_used_at is written at most this often. */
const TOUCH_INTERVAL_MS = 60_000;

export interface NewCredential {
  name: string;
  scope: XapiScope;
  /** The Agent an `actor` credential is bound to (required for that scope, refused for the others). */
  actor?: unknown;
  /** The registration an `actor` credential made for a launch is bound to. */
  registration?: string | null;
  /** Who made it; null for a credential the player makes for a launch. */
  userId: number | null;
  /** The xAPI version its client speaks, named in replies to requests that name none (2.0.0 unless chosen). */
  version?: XapiVersion;
  /** A client an admin sets up (the default), a package launch's, or the LMS's own: only clients are listed. */
  purpose?: "client" | "launch" | "lms";
  days?: number;
  /** A launch's credential lives no longer than the launch. */
  notAfter?: Date;
  now?: Date;
}

/**
 * Makes a credential; its key and secret are returned once. An `actor` credential must name exactly one
 * Agent (one inverse functional identifier); the others name none. The lifetime is clamped to 1–365 days.
 */
export function createXapiCredential(
  db: TenantConn,
  {
    name,
    scope,
    actor,
    registration = null,
    userId,
    version = "2.0.0",
    purpose = "client",
    days = DEFAULT_CREDENTIAL_DAYS,
    notAfter,
    now = new Date(),
  }: NewCredential,
): { key: string; secret: string; credential: XapiCredential } | { error: "actor_required" | "actor_not_allowed" } {
  const key = scope === "actor" ? agentKey(actor) : null;
  if (scope === "actor" && !key) return { error: "actor_required" };
  if (scope !== "actor" && (actor !== undefined || registration)) return { error: "actor_not_allowed" };
  const publicKey = crypto.randomBytes(16).toString("base64url");
  const secret = randomToken();
  const lifetime = Math.min(MAX_CREDENTIAL_DAYS, Math.max(1, Number.isFinite(days) ? Math.floor(days) : DEFAULT_CREDENTIAL_DAYS));
  const credential = db
    .insert(xapiCredentials)
    .values({
      name,
      key: publicKey,
      secretHash: hashToken(secret),
      scope,
      actor: key ? JSON.stringify(actor) : null,
      actorKey: key,
      registration: registration?.toLowerCase() ?? null,
      version,
      purpose,
      userId,
      createdAt: now,
      expiresAt: new Date(Math.min(now.getTime() + lifetime * DAY_MS, notAfter?.getTime() ?? Infinity)),
    })
    .returning()
    .get();
  return { key: publicKey, secret, credential };
}

/** The credentials people made (not the player's for launches, nor the LMS's own), newest first: live ones, and those that ended in the last 30 days. */
export function listXapiCredentials(db: TenantConn, now = new Date()) {
  const recent = new Date(now.getTime() - 30 * DAY_MS);
  return db
    .select({
      id: xapiCredentials.id,
      name: xapiCredentials.name,
      key: xapiCredentials.key,
      scope: xapiCredentials.scope,
      actor: xapiCredentials.actor,
      version: xapiCredentials.version,
      createdAt: xapiCredentials.createdAt,
      expiresAt: xapiCredentials.expiresAt,
      revokedAt: xapiCredentials.revokedAt,
      lastUsedAt: xapiCredentials.lastUsedAt,
    })
    .from(xapiCredentials)
    .where(
      and(
        eq(xapiCredentials.purpose, "client"),
        gt(xapiCredentials.expiresAt, recent),
        or(isNull(xapiCredentials.revokedAt), gt(xapiCredentials.revokedAt, recent)),
      ),
    )
    .orderBy(desc(xapiCredentials.id))
    .all();
}

/** Ends a credential at once; true when it was live. */
export function revokeXapiCredential(db: TenantConn, id: number, now = new Date()) {
  const ended = db
    .update(xapiCredentials)
    .set({ revokedAt: now })
    .where(and(eq(xapiCredentials.id, id), isNull(xapiCredentials.revokedAt)))
    .returning({ id: xapiCredentials.id })
    .all();
  return ended.length > 0;
}

/**
 * The live credential an `Authorization: Basic …` header names, or null (missing, malformed, unknown,
 * wrong secret, revoked or expired: the caller answers 401 alike). The secret is compared as its hash, in
 * constant time; nothing else is read.
 */
export function authenticateXapi(db: TenantConn, authorization: string | null, now = new Date()): XapiCredential | null {
  const pair = basicPair(authorization);
  if (!pair) return null;
  const credential = db.select().from(xapiCredentials).where(eq(xapiCredentials.key, pair.key)).get();
  if (!credential) return null;
  const given = Buffer.from(hashToken(pair.secret), "hex");
  const kept = Buffer.from(credential.secretHash, "hex");
  if (given.length !== kept.length || !crypto.timingSafeEqual(given, kept)) return null;
  if (credential.revokedAt || credential.expiresAt.getTime() <= now.getTime()) return null;
  if (!credential.lastUsedAt || now.getTime() - credential.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS)
    db.update(xapiCredentials).set({ lastUsedAt: now }).where(eq(xapiCredentials.id, credential.id)).run();
  return credential;
}

/** The key and secret of a Basic authorization header (keys are base64url, so never hold a colon). */
function basicPair(authorization: string | null): { key: string; secret: string } | null {
  const match = /^Basic ([A-Za-z0-9+/=]{1,400})$/i.exec(authorization?.trim() ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon <= 0 || colon === decoded.length - 1) return null;
  return { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}
