import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localMidnight } from "../../app/utils/analytics-periods";
import { api, tenantDb } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * The /api calls of docs/product.md §7 "Analytics" and the CSV export against the real server and the demo's year
 * of history: the envelope, the query, who sees which figures, and downloads counted when served.
 */
let server: InProcessServer;
let admin: string;
let learner: string;
let groupAdmin: string;
const ORG = "nordlys.localhost";
const MEMBERS =
  "(select id from users where email not in ('admin@nordlys.test', 'learner@nordlys.test') and role = 'learner' order by id limit 2)";

beforeAll(async () => {
  server = await startInProcess();
  execTenant(
    server,
    2,
    "insert into users (email, first_name, last_name, role) values ('groupadmin@nordlys.test', 'Gry', 'Gruppe', 'learner')",
  );
  execTenant(server, 2, "insert into groups (name) values ('Team Syd')");
  execTenant(
    server,
    2,
    "insert into group_members (group_id, user_id, is_admin) select g.id, u.id, 1 from groups g, users u where g.name = 'Team Syd' and u.email = 'groupadmin@nordlys.test'",
  );
  // Two of the demo's generated learners belong to the group.
  execTenant(
    server,
    2,
    `insert into group_members (group_id, user_id, is_admin) select g.id, u.id, 0 from groups g, users u where g.name = 'Team Syd' and u.id in ${MEMBERS}`,
  );
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  groupAdmin = insertSession(server, { organizationId: 2 }, { email: "groupadmin@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

const get = (p: string, token = admin) => api(server, ORG, "GET", p, { token });

function scalar(sql: string, ...params: unknown[]) {
  const db = tenantDb(server, 2);
  try {
    return Object.values(db.prepare(sql).get(...params) as Record<string, number>)[0];
  } finally {
    db.close();
  }
}

describe("the KPI calls", () => {
  it("answers new users by month in the envelope, matching the users table in Copenhagen time", async () => {
    const res = await get("analytics/users/new-users?period=12m&group=month&compare=true");
    expect(res.status).toBe(200);
    const { payload, status } = res.json();
    expect(status).toBe(200);
    expect(payload).toMatchObject({
      kpi: "new_users",
      group: "month",
      compare: true,
      time_zone: "Europe/Copenhagen",
      unit: "count",
      scope: "organization",
      available: true,
    });
    expect(payload.buckets.length).toBeGreaterThanOrEqual(12);
    expect(payload.buckets.reduce((s: number, b: { value: number }) => s + b.value, 0)).toBe(payload.total);
    const start = localMidnight(payload.from, "Europe/Copenhagen") / 1000;
    const end = localMidnight(addDays(payload.to, 1), "Europe/Copenhagen") / 1000;
    expect(payload.total).toBe(scalar("select count(*) from users where created_at >= ? and created_at < ?", start, end));
    expect(payload.total).toBeGreaterThan(10);
    expect(payload.previous.total).toBe(
      scalar("select count(*) from users where created_at < ?", start) -
        scalar("select count(*) from users where created_at < ?", localMidnight(payload.previous.from, "Europe/Copenhagen") / 1000),
    );
    expect(payload.change.absolute).toBe(payload.total - payload.previous.total);
  });

  it("answers completions with a per-course breakdown that adds up, and watch time in minutes", async () => {
    const completions = (await get("analytics/courses/completions?from=2025-01-01&to=2026-12-31&group=month&courses=true")).json().payload;
    expect(completions.total).toBe(scalar("select count(*) from course_completions"));
    expect(completions.courses.reduce((s: number, c: { completions: number }) => s + c.completions, 0)).toBe(completions.total);
    expect(completions.previous).toBeNull();
    const watch = (await get("analytics/watch-time?period=12m&group=week")).json().payload;
    expect(watch).toMatchObject({ kpi: "watch_time", unit: "minutes", group: "week" });
    expect(watch.buckets.every((b: { key: string }) => /^\d{4}-W\d{2}$/.test(b.key))).toBe(true);
    const overview = (await get("analytics/users?period=90d")).json().payload;
    expect(Object.keys(overview.kpis)).toEqual(["new_users", "watch_time", "completions", "downloads"]);
    expect(overview.group).toBe("week");
  });

  it("has the server recount the daily rollups when they are not in the organization's zone, with the same answers", async () => {
    // The demo seeded the days in Copenhagen time; days counted in another zone are not read, and the
    // first report queues their recount in the background.
    expect(scalar("select count(*) from analytics_rollup where ready = 1 and time_zone = 'Europe/Copenhagen'")).toBe(1);
    const query = "analytics/users?from=2025-06-01&to=2026-12-31&group=week&compare=true&courses=true";
    const fromDays = (await get(query)).json().payload;
    execTenant(server, 2, "update analytics_rollup set time_zone = 'Asia/Tokyo'");
    expect((await get(query)).json().payload).toEqual(fromDays); // from the hours meanwhile
    const deadline = Date.now() + 20_000;
    while (!scalar("select count(*) from analytics_rollup where ready = 1 and time_zone = 'Europe/Copenhagen'") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(scalar("select status = 'done' from jobs where kind = 'analytics.rebuild' order by id desc limit 1")).toBe(1);
    expect(scalar("select count(*) from analytics_daily where course_id = 0")).toBeGreaterThan(100);
    expect((await get(query)).json().payload).toEqual(fromDays);
    // Reports queue nothing more once the days are ready: one job.
    await get("analytics/users?period=30d");
    expect(scalar("select count(*) from jobs where kind = 'analytics.rebuild'")).toBe(1);
  });

  it("refuses a bad query with translated field errors, learners with 403, and other methods with 405", async () => {
    const bad = await get("analytics/watch-time?from=2026-02-30&to=2026-01-01&group=year&compare=maybe");
    expect(bad.status).toBe(422);
    const { payload } = bad.json();
    expect(payload.code).toBe("invalid");
    expect(Object.keys(payload.fields).sort()).toEqual(["compare", "from", "group"]);
    expect(payload.fields.from[0]).toBe("Skriv en dato som ÅÅÅÅ-MM-DD.");
    const reversed = (await get("analytics/watch-time?from=2026-03-01&to=2026-01-01")).json().payload;
    expect(reversed.fields.to).toEqual(["Slutdatoen skal være samme dag som eller efter startdatoen."]);
    expect((await get("analytics/watch-time?from=2020-01-01&to=2026-01-01")).status).toBe(422);
    expect((await get("analytics/users", learner)).status).toBe(403);
    expect((await api(server, ORG, "GET", "analytics/users")).status).toBe(401);
    expect((await api(server, ORG, "POST", "analytics/watch-time", { token: admin, body: {} })).status).toBe(405);
  });

  it("gives a group admin the figures of its groups' members only, and no downloads", async () => {
    const q = "?from=2025-01-01&to=2026-12-31&group=month";
    const mine = (await get(`analytics/courses/completions${q}`, groupAdmin)).json().payload;
    expect(mine.scope).toBe("groups");
    expect(mine.total).toBe(scalar(`select count(*) from course_completions where user_id in ${MEMBERS}`));
    const users = (await get(`analytics/users/new-users${q}`, groupAdmin)).json().payload;
    // The two learners, and the group admin, a member who joined today.
    expect(users.total).toBe(scalar(`select count(*) from users where id in ${MEMBERS} and created_at >= unixepoch('2025-01-01')`) + 1);
    const downloads = (await get(`analytics/materials-download${q}`, groupAdmin)).json().payload;
    expect(downloads).toMatchObject({ available: false, total: null, buckets: [] });
  });
});

describe("material downloads", () => {
  it("count when the signed download is served from its start, not when the link is made", async () => {
    const { body, contentType } = multipart(
      {},
      { file: { name: "haandbog.pdf", type: "application/pdf", data: Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n") } },
    );
    const file = (
      await request(server.port, ORG, "/api/files", {
        method: "POST",
        headers: { Authorization: `Bearer ${admin}`, "Content-Type": contentType },
        body,
      })
    ).json().payload;
    execTenant(server, 2, "insert into materials (course_id, file_id, title) values (1, ?, 'Håndbog')", file.id);
    const total = async () => (await get("analytics/materials-download?period=7d")).json().payload.total as number;
    const before = await total();
    const link = new URL((await get(`files/${file.id}/download`)).json().payload.url);
    expect(await total()).toBe(before);
    expect((await request(server.port, ORG, link.pathname)).status).toBe(200);
    expect(await total()).toBe(before + 1);
    // A player or download manager fetching the rest by ranges, or a HEAD, is the same download.
    expect((await request(server.port, ORG, link.pathname, { headers: { Range: "bytes=10-" } })).status).toBe(206);
    expect((await request(server.port, ORG, link.pathname, { method: "HEAD" })).status).toBe(200);
    expect(await total()).toBe(before + 1);
    const course = (await get("analytics/materials-download?period=7d&courses=true"))
      .json()
      .payload.courses.find((c: { course_id: number }) => c.course_id === 1);
    expect(course.downloads).toBeGreaterThanOrEqual(1);
  });
});

describe("CSV export", () => {
  it("downloads every table of the analytics page as CSV, and refuses an unknown table", async () => {
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
    const courses = await request(server.port, ORG, "/dashboard/analytics/export?period=12m&group=month&table=courses", {
      headers: { Cookie: cookie },
    });
    expect(courses.status).toBe(200);
    expect(courses.headers["content-type"]).toContain("text/csv");
    expect(courses.body.replace(/^\uFEFF/, "").split("\r\n")[0]).toBe(
      "course_id,title,completions,watch_minutes,downloads,quiz_attempts,quiz_passes,quiz_pass_rate",
    );
    const weeks = await request(server.port, ORG, "/dashboard/analytics/export?period=30d&group=week&compare=true&table=new_users", {
      headers: { Cookie: cookie },
    });
    const lines = weeks.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("bucket,from,to,value,previous_bucket,previous_from,previous_to,previous_value");
    expect(lines[1]).toMatch(/^\d{4}-W\d{2},/);
    expect((await request(server.port, ORG, "/dashboard/analytics/export?table=secrets", { headers: { Cookie: cookie } })).status).toBe(
      400,
    );
    const learnerCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
    expect(
      (await request(server.port, ORG, "/dashboard/analytics/export?table=courses", { headers: { Cookie: learnerCookie } })).status,
    ).toBe(403);
  });
});

describe("the analytics page's course table", () => {
  it("shows the busiest 25 courses a page at a time, with links that keep the period, and the CSV has them all", async () => {
    // 40 more courses, each with completions yesterday (hourly facts; the days are recounted from them).
    for (let i = 1; i <= 40; i++) {
      execTenant(
        server,
        2,
        "insert into courses (title, type, published) values (?, 'series', 1)",
        `Paging course ${String(i).padStart(2, "0")}`,
      );
    }
    const hour = Math.floor((Date.now() - 86_400_000) / 3_600_000);
    execTenant(
      server,
      2,
      "insert into analytics_hourly (metric, hour, course_id, value) select 'completions', ?, id, 100 + id from courses where title like 'Paging course %' on conflict do update set value = value + excluded.value",
      hour,
    );
    execTenant(server, 2, "update analytics_rollup set ready = 0");
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
    const page = (n?: number) =>
      request(server.port, ORG, `/dashboard/analytics?period=30d&group=week${n ? `&courses_page=${n}` : ""}`, {
        headers: { Cookie: cookie },
      });
    const deadline = Date.now() + 20_000;
    await page(); // queues the recount
    while (!scalar("select count(*) from analytics_rollup where ready = 1") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const total = (await get("analytics/courses/completions?period=30d&courses=true")).json().payload.courses.length;
    expect(total).toBeGreaterThanOrEqual(40);
    const rowsOf = (html: string) => [...html.matchAll(/<tr><th scope="row">([^<]*)<\/th>/g)].map((m) => m[1]);
    const first = (await page()).body;
    expect(rowsOf(first)).toHaveLength(25);
    expect(rowsOf(first)[0]).toBe("Paging course 40"); // the most completions first
    expect(first).toContain(`1–25 af ${total} kurser`); // the admin reads Danish (the demo organization's language)
    expect(first).toMatch(/href="\/dashboard\/analytics\?[^"]*period=30d[^"]*&amp;courses_page=2#analytics-courses-title"/);
    const last = (await page(Math.ceil(total / 25))).body;
    expect(rowsOf(last)).toHaveLength(total - 25 * (Math.ceil(total / 25) - 1));
    expect(last).toContain(`af ${total} kurser`);
    // Beyond the last page is the last page; the CSV download is every course.
    expect(rowsOf((await page(99)).body)).toEqual(rowsOf(last));
    const csv = await request(server.port, ORG, "/dashboard/analytics/export?period=30d&group=week&table=courses", {
      headers: { Cookie: cookie },
    });
    expect(csv.body.trim().split("\r\n")).toHaveLength(total + 1);
  });
});
