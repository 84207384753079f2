import crypto from "node:crypto";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import type { ServerAddress } from "./server";

/**
 * Signs someone in by writing a session row, as the server itself would after a password and a code
 * (the Epic Stack's login fixture): fast, and the request under test still goes through every check.
 */
export function insertSession(
  server: ServerAddress,
  where: { organizationId: number } | "platform",
  { email, kind }: { email: string; kind: "web" | "api" },
) {
  const file =
    where === "platform"
      ? path.join(server.dataDir, "platform.sqlite")
      : path.join(server.dataDir, `org-${where.organizationId}`, "db.sqlite");
  const people = where === "platform" ? "super_admins" : "users";
  const sessions = where === "platform" ? "platform_sessions" : "sessions";
  const db = new Database(file);
  try {
    db.pragma("busy_timeout = 5000");
    const person = db.prepare(`select id from ${people} where email = ?`).get(email) as { id: number } | undefined;
    if (!person) throw new Error(`no ${people} row for ${email}`);
    const token = crypto.randomBytes(32).toString("base64url");
    const now = Math.floor(Date.now() / 1000);
    db.prepare(
      `insert into ${sessions} (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id)
       values (?, ?, 'test', '127.0.0.1', ?, ?, ?, 0, ?)`,
    ).run(crypto.createHash("sha256").update(token).digest("hex"), kind, now, now, now + 2_592_000, person.id);
    return token;
  } finally {
    db.close();
  }
}

const sessionCookie = createCookie("lectern_session", { path: "/" });

/** The Cookie header a browser would send for a session token. */
export async function cookieFor(token: string) {
  const set = await sessionCookie.serialize(token);
  return set.split(";")[0];
}

/** Runs SQL on an organization's database beside the running server. */
export function execTenant(server: ServerAddress, organizationId: number, sql: string, ...params: unknown[]) {
  const db = new Database(path.join(server.dataDir, `org-${organizationId}`, "db.sqlite"));
  try {
    db.pragma("busy_timeout = 5000");
    return db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}
