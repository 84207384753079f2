import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import Database from "better-sqlite3";
import express from "express";

/**
 * A floor for the progress heartbeat row of `npm run bench`: the least a heartbeat can do on this stack,
 * in Express and better-sqlite3 with nothing else (no tenancy, security headers, rate limits, Remix, zod,
 * access rules, watch-time credit, group commit). It reads the JSON body, finds the bearer token's
 * session and person, finds the lesson, and writes the learner's progress row in one statement (SQLite's
 * own transaction), with the same pragmas as Lectern's tenant handles. What Lectern does beyond this is
 * what the product asks of a heartbeat; this measures what the stack itself costs.
 */
const db = new Database(process.env.TENANT_FILE!);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("foreign_keys = ON");
db.pragma("busy_timeout = 5000");
const session = db.prepare(
  "select s.id as session_id, u.id as user_id from sessions s join users u on u.id = s.user_id where s.token_hash = ? and s.expires_at > ? and u.disabled_at is null",
);
const lesson = db.prepare("select id, course_id from lessons where id = ?");
const upsert = db.prepare(
  `insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds, created_at, updated_at)
   values (?, ?, ?, ?, ?, ?, ?)
   on conflict (user_id, lesson_id) do update set position_seconds = excluded.position_seconds,
     watched_seconds = lesson_progress.watched_seconds + excluded.watched_seconds, updated_at = excluded.updated_at
   returning *`,
);

const app = express();
app.post("/api/lesson-progresses", (req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const now = Math.floor(Date.now() / 1000);
    const who = session.get(crypto.createHash("sha256").update(token).digest("hex"), now) as { user_id: number } | undefined;
    if (!who) return res.status(401).json({ error: true, status: 401 });
    let body: { lesson_id?: number; position_seconds?: number; watched_seconds?: number };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      return res.status(400).json({ error: true, status: 400 });
    }
    const found = lesson.get(body.lesson_id) as { id: number; course_id: number } | undefined;
    if (!found) return res.status(404).json({ error: true, status: 404 });
    const row = upsert.get(who.user_id, found.id, found.course_id, body.position_seconds ?? 0, body.watched_seconds ?? 0, now, now);
    res.json({ payload: row, status: 200 });
  });
});
const server = app.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ msg: "listening", port: (server.address() as AddressInfo).port }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
