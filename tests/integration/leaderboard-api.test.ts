import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, tenantDb } from "../helpers/auth";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { execTenant, insertSession } from "../helpers/sessions";
import { request } from "../helpers/http";

/**
 * The leaderboard over /api against a real server: one award for a completion posted 50 times at once,
 * boards that equal the ledger, opted-out learners absent from others' replies, admins' settings.
 */
let server: InProcessServer;
let admin: string;
let learner: string;
let other: string;
let shy: string;
const ids: Record<string, number> = {};
const ORG = "nordlys.localhost";

beforeAll(async () => {
  server = await startInProcess();
  execTenant(server, 2, "insert into users (email, first_name, last_name, role) values ('olga@nordlys.test', 'Olga', 'Other', 'learner')");
  execTenant(server, 2, "insert into users (email, first_name, last_name, role) values ('shy@nordlys.test', 'Sigrid', 'Shy', 'learner')");
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  other = insertSession(server, { organizationId: 2 }, { email: "olga@nordlys.test", kind: "api" });
  shy = insertSession(server, { organizationId: 2 }, { email: "shy@nordlys.test", kind: "api" });
  const db = tenantDb(server, 2);
  for (const row of db.prepare("select id, email from users").all() as Array<{ id: number; email: string }>)
    ids[row.email.split("@")[0]] = row.id;
  db.close();
});
afterAll(() => server?.stop());

const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });
const payload = async (method: string, p: string, body?: unknown, token = admin) => {
  const res = await call(method, p, body, token);
  expect(res.status, res.body).toBeLessThan(300);
  return res.json().payload;
};

async function course(title: string, lessons = 2) {
  const c = await payload("POST", "courses", { title, type: "series", published: true });
  const out: number[] = [];
  for (let i = 0; i < lessons; i++)
    out.push((await payload("POST", "lessons", { course_id: c.id, title: `${title} ${i}`, kind: "text" })).id);
  return { id: c.id as number, lessons: out };
}

function ledgerSum(userId: number) {
  const db = tenantDb(server, 2);
  try {
    return (db.prepare("select coalesce(sum(points), 0) as n from points_ledger where user_id = ?").get(userId) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("awards", () => {
  it("the same completion posted 50 times at once gives one award, and the board equals the ledger", async () => {
    const c = await course("Samtidig", 1);
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => call("POST", "lesson-progresses", { lesson_id: c.lessons[0], completed: true }, learner)),
    );
    expect(replies.every((r) => r.status < 300)).toBe(true);
    const db = tenantDb(server, 2);
    const rows = db
      .prepare("select activity, ref from points_ledger where user_id = ? and ref in (?, ?)")
      .all(ids.learner, `lesson:${c.lessons[0]}`, `course:${c.id}`);
    db.close();
    expect(rows).toEqual(
      expect.arrayContaining([
        { activity: "lesson_completed", ref: `lesson:${c.lessons[0]}` },
        { activity: "course_completed", ref: `course:${c.id}` },
      ]),
    );
    expect(rows).toHaveLength(2);
    const points = await payload("GET", `leaderboard/points/${ids.learner}`, undefined, learner);
    expect(points.points).toBe(ledgerSum(ids.learner));
    expect(points.points).toBeGreaterThanOrEqual(60);
    const board = await payload("GET", "leaderboard?period=week", undefined, learner);
    const rank = await payload("GET", `leaderboard/rank/${ids.learner}?period=week`, undefined, other);
    expect(board.me).toMatchObject({ user_id: ids.learner, rank: rank.rank, points: rank.points });
    // Everyone listed above the learner has more points this week; everyone below, fewer.
    const all = (await payload("GET", "leaderboard?period=week&per_page=100", undefined, learner)).data as Array<{
      user_id: number;
      points: number;
      rank: number;
    }>;
    for (const e of all) expect(Math.sign(e.points - rank.points)).toBe(Math.sign(rank.rank - e.rank));
    const course1 = await payload("GET", `leaderboard/courses/${c.id}`, undefined, other);
    expect(course1.data).toEqual([expect.objectContaining({ user_id: ids.learner, points: 60, rank: 1 })]);
    expect(course1.me).toMatchObject({ user_id: ids.olga, points: 0, rank: 2 });
  });
});

describe("privacy", () => {
  it("opted-out learners never appear in another learner's replies, and keep earning", async () => {
    const c = await course("Skjult", 3);
    for (const lesson of c.lessons) await call("POST", "lesson-progresses", { lesson_id: lesson, completed: true }, shy);
    await call("POST", "bookmarks", { course_id: c.id }, shy);
    // Opt out the way the settings page does.
    const { cookieFor } = await import("../helpers/sessions");
    const web = insertSession(server, { organizationId: 2 }, { email: "shy@nordlys.test", kind: "web" });
    const res = await request(server.port, ORG, "/leaderboard/visibility", {
      method: "POST",
      headers: { Cookie: await cookieFor(web), "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
      body: "hidden=true",
    });
    expect(res.status).toBe(302);
    for (const period of ["all", "month", "week"]) {
      const board = await payload("GET", `leaderboard?period=${period}&per_page=100`, undefined, other);
      expect(JSON.stringify(board)).not.toContain("Sigrid");
      expect(board.data.map((e: { user_id: number }) => e.user_id)).not.toContain(ids.shy);
    }
    for (const widget of ["bookmarks", "watch-time", "streak"]) {
      expect(
        (await payload("GET", `leaderboard/${widget}`, undefined, other)).data.map((e: { user_id: number }) => e.user_id),
      ).not.toContain(ids.shy);
    }
    expect(JSON.stringify(await payload("GET", `leaderboard/courses/${c.id}`, undefined, other))).not.toContain("Sigrid");
    for (const p of ["rank", "points", "watch-time"])
      expect((await call("GET", `leaderboard/${p}/${ids.shy}`, undefined, other)).status).toBe(404);
    // Others' ranks do not count them: Olga, with no points, is ranked among the visible only.
    const shyOwn = await payload("GET", `leaderboard/points/${ids.shy}`, undefined, shy);
    expect(shyOwn).toMatchObject({ hidden: true, points: ledgerSum(ids.shy) });
    expect(shyOwn.points).toBeGreaterThan(0);
    const olga = await payload("GET", `leaderboard/rank/${ids.olga}`, undefined, other);
    const visible = (await payload("GET", "leaderboard?per_page=100", undefined, other)).meta.total;
    expect(olga.rank).toBe(visible + 1);
  });
});

describe("admins", () => {
  it("change activity points and level thresholds; learners may not", async () => {
    expect((await call("PUT", "leaderboard/activities/lesson_completed", { points: 40 }, learner)).status).toBe(403);
    expect((await payload("PUT", "leaderboard/activities/lesson_completed", { points: 40 })).points).toBe(40);
    const bad = await call("PUT", "leaderboard/activities/lesson_completed", { points: -5 });
    expect(bad.status).toBe(422);
    expect((await payload("GET", "leaderboard/activities/lesson_completed", undefined, learner)).points).toBe(40);
    const c = await course("Fyrre", 1);
    await call("POST", "lesson-progresses", { lesson_id: c.lessons[0], completed: true }, other);
    expect((await payload("GET", `leaderboard/points/${ids.olga}`, undefined, other)).points).toBe(40 + 50);

    const levels = (await payload("GET", "leaderboard/levels", undefined, learner)).data;
    expect(levels.map((l: { threshold: number }) => l.threshold)).toEqual([0, 100, 300, 700, 1500]);
    const explorer = levels.find((l: { name: string }) => l.name === "Opdager"); // the demo's Danish "Explorer"
    const taken = await call("PUT", `leaderboard/levels/${explorer.id}`, { threshold: 300 });
    expect(taken.status).toBe(422);
    expect(taken.json().payload.fields.threshold).toEqual(["Et andet niveau starter allerede ved dette antal point."]); // Nordlys speaks Danish;
    await payload("PUT", `leaderboard/levels/${explorer.id}`, { threshold: 80 });
    const olga = await payload("GET", `leaderboard/points/${ids.olga}`, undefined, other);
    expect(olga.level.name).toBe("Opdager");
    expect((await call("POST", "leaderboard/levels", { name: "x", threshold: 5, color: "#abcdef" }, learner)).status).toBe(403);
    expect((await payload("POST", "leaderboard/levels", { name: "Novice", threshold: 5, color: "#abcdef" })).name).toBe("Novice");
    expect((await call("GET", "leaderboard/no-such-widget", undefined, learner)).status).toBe(404);
  });

  it("issue badges as Open Badges assertions anyone can verify", async () => {
    const points = await payload("GET", `leaderboard/points/${ids.learner}`, undefined, learner);
    const first = points.badges.find((b: { name: string }) => b.name === "Første skridt");
    expect(first).toBeTruthy();
    const res = await request(server.port, ORG, `/badges/assertions/${first.uid}`, {});
    expect(res.status).toBe(200);
    const assertion = res.json();
    expect(assertion).toMatchObject({
      "@context": "https://w3id.org/openbadges/v2",
      type: "Assertion",
      verification: { type: "hosted" },
      recipient: { type: "email", hashed: true },
    });
    expect(JSON.stringify(assertion)).not.toContain("learner@nordlys.test");
    const badgeUrl = new URL(assertion.badge);
    const badgeClass = (await request(server.port, ORG, badgeUrl.pathname, {})).json();
    expect(badgeClass).toMatchObject({ type: "BadgeClass", name: "Første skridt" });
    const image = await request(server.port, ORG, new URL(badgeClass.image).pathname, {});
    expect(image.headers["content-type"]).toContain("image/svg+xml");
    expect((await request(server.port, ORG, new URL(badgeClass.issuer).pathname, {})).json()).toMatchObject({ type: "Issuer" });
  });
});
