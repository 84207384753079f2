import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../app/utils/calendar";
import { api, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * The compliance report (issue 34) through the real server: the /api calls in the envelope, the dashboard's
 * pages with their GET form (JavaScript off), the CSV download, and who sees what, against a fixture of its
 * own in Nordlys (its own course, groups and people, so the demo's assignments change nothing here).
 *
 * Fixture, with days around the organization's today:
 * - "Fixture fire drill": to the fixture team (Pia, Per, Pål, and Gro who administers it) due in 10 days,
 *   Per done, Pål started; to the other team (Kai, Kim) due 3 days ago, Kim done; Liv left the fixture team.
 * - "Fixture first aid": to Pia alone, due yesterday.
 */
let server: InProcessServer;
const ORG = "nordlys.localhost";
const ids: Record<string, number> = {};
let admin: string;
let adminCookie: string;
let groupAdmin: string;
let groupAdminCookie: string;
let learner: string;
let learnerCookie: string;
let today: string;

const get = (p: string, token = admin) => api(server, ORG, "GET", p, { token });
const page = (p: string, cookie = adminCookie) => request(server.port, ORG, p, { headers: { Cookie: cookie } });

beforeAll(async () => {
  server = await startInProcess();
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  adminCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  learnerCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
  today = (await get("compliance")).json().payload.today;

  const db = tenantDb(server, 2);
  try {
    db.pragma("busy_timeout = 5000");
    const now = Math.floor(Date.now() / 1000);
    const insert = (sql: string, ...params: unknown[]) => Number(db.prepare(sql).run(...params).lastInsertRowid);
    db.transaction(() => {
      for (const [key, first] of [
        ["pia", "Pia"],
        ["per", "Per"],
        ["pal", "Pål"],
        ["gro", "Gro"],
        ["kai", "Kai"],
        ["kim", "Kim"],
        ["liv", "Liv"],
      ])
        ids[key] = insert(
          "insert into users (email, first_name, last_name, role) values (?, ?, 'Fixture', 'learner')",
          `${key}@compliance.test`,
          first,
        );
      ids.fire = insert(
        "insert into courses (title, description, type, published, position) values ('Fixture fire drill', '', 'series', 1, 900)",
      );
      ids.aid = insert(
        "insert into courses (title, description, type, published, position) values ('Fixture first aid', '', 'series', 1, 901)",
      );
      const lesson = insert("insert into lessons (course_id, title, kind, position) values (?, 'Drill', 'text', 0)", ids.fire);
      ids.team = insert("insert into groups (name) values ('Fixture team')");
      ids.other = insert("insert into groups (name) values ('Fixture other team')");
      for (const key of ["pia", "per", "pal", "gro"])
        db.prepare("insert into group_members (group_id, user_id, is_admin) values (?, ?, ?)").run(
          ids.team,
          ids[key],
          key === "gro" ? 1 : 0,
        );
      for (const key of ["kai", "kim"]) db.prepare("insert into group_members (group_id, user_id) values (?, ?)").run(ids.other, ids[key]);
      const assign = (course: number, target: "group" | "person", who: number, due: string) =>
        insert(
          `insert into assignments (course_id, target, ${target === "group" ? "group_id" : "user_id"}, due_kind, due_date) values (?, ?, ?, 'date', ?)`,
          course,
          target,
          who,
          due,
        );
      const row = (assignment: number, key: string, due: string, completed: number | null = null, left: number | null = null) =>
        db
          .prepare(
            "insert into assignment_people (assignment_id, user_id, assigned_at, due_on, completed_at, left_at) values (?, ?, ?, ?, ?, ?)",
          )
          .run(assignment, ids[key], now - 86_400, due, completed, left);
      const team = assign(ids.fire, "group", ids.team, addDays(today, 10));
      for (const key of ["pia", "per", "pal", "gro"]) row(team, key, addDays(today, 10), key === "per" ? now - 3600 : null);
      row(team, "liv", addDays(today, 10), null, now - 7200);
      const other = assign(ids.fire, "group", ids.other, addDays(today, -3));
      row(other, "kai", addDays(today, -3));
      row(other, "kim", addDays(today, -3), now - 86_400 * 2);
      row(assign(ids.aid, "person", ids.pia, addDays(today, -1)), "pia", addDays(today, -1));
      db.prepare("insert into lesson_progress (user_id, lesson_id, course_id, created_at, updated_at) values (?, ?, ?, ?, ?)").run(
        ids.pal,
        lesson,
        ids.fire,
        now,
        now,
      );
    })();
  } finally {
    db.close();
  }
  groupAdmin = insertSession(server, { organizationId: 2 }, { email: "gro@compliance.test", kind: "api" });
  groupAdminCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "gro@compliance.test", kind: "web" }));
});
afterAll(() => server?.stop());

const counts = (assigned: number, done: number, in_progress: number, not_started: number, overdue: number) => ({
  assigned,
  done,
  in_progress,
  not_started,
  overdue,
  expiring: 0,
});
const emails = (rows: { email: string }[]) => rows.map((r) => r.email.split("@")[0]).sort();

describe("GET /api/compliance", () => {
  it("counts per course and per group, on the organization's day, in the envelope", async () => {
    const res = await get(`compliance?course_id=${ids.fire}`);
    expect(res.status).toBe(200);
    const { payload, status } = res.json();
    expect(status).toBe(200);
    expect(payload).toMatchObject({
      today,
      expiring_until: addDays(today, 30),
      scope: "organization",
      course_id: ids.fire,
      group_id: null,
    });
    expect(payload.time_zone).toMatch(/\//);
    // Pia, Per (done), Pål (started), Gro; Kai (overdue), Kim (done). Liv left the team.
    expect(payload.courses).toEqual([{ course_id: ids.fire, title: "Fixture fire drill", ...counts(6, 2, 1, 2, 1) }]);
    expect(payload.totals).toEqual(counts(6, 2, 1, 2, 1));
    expect(payload.groups).toEqual([
      { group_id: ids.other, name: "Fixture other team", ...counts(2, 1, 0, 0, 1) },
      { group_id: ids.team, name: "Fixture team", ...counts(4, 1, 1, 2, 0) },
    ]);
  });

  it("narrows to a group: its current members and every course each is assigned", async () => {
    const { payload } = (await get(`compliance?group_id=${ids.team}`)).json();
    expect(payload.courses).toEqual([
      { course_id: ids.fire, title: "Fixture fire drill", ...counts(4, 1, 1, 2, 0) },
      { course_id: ids.aid, title: "Fixture first aid", ...counts(1, 0, 0, 0, 1) },
    ]);
    expect(payload.groups).toEqual([{ group_id: ids.team, name: "Fixture team", ...counts(5, 1, 1, 2, 1) }]);
  });

  it("answers a bad filter with translated field errors, and an unknown course or group with 404", async () => {
    const bad = await api(server, ORG, "GET", "compliance?course_id=abc", { token: admin, headers: { "Accept-Language": "da" } });
    expect(bad.status).toBe(422);
    expect(bad.json().payload).toMatchObject({ code: "invalid", fields: { course_id: ["Vælg en af mulighederne."] } });
    expect((await get("compliance?course_id=999999")).status).toBe(404);
    expect((await get("compliance?group_id=999999")).status).toBe(404);
  });
});

describe("GET /api/compliance/people", () => {
  it("lists the people behind a number, overdue first, with the filters", async () => {
    const notStarted = (await get(`compliance/people?course_id=${ids.fire}&state=not_started`)).json().payload;
    expect(emails(notStarted.data)).toEqual(["gro", "pia"]);
    expect(notStarted.meta).toEqual({ current_page: 1, per_page: 20, total: 2, last_page: 1 });
    const team = (await get(`compliance/people?group_id=${ids.team}`)).json().payload.data;
    expect(team.map((p: { email: string; course_title: string; state: string }) => `${p.email.split("@")[0]} ${p.state}`)).toEqual([
      "pia overdue", // first aid, due yesterday
      "pia not_started",
      "pal in_progress",
      "gro not_started",
      "per done",
    ]);
    expect(team[4]).toMatchObject({ due_on: addDays(today, 10), started: false, expires_on: null });
    expect(new Date(team[4].completed_at).getTime()).toBeGreaterThan(Date.now() - 86_400_000);
    const due = (await get(`compliance/people?due_from=${addDays(today, -5)}&due_to=${addDays(today, -1)}&q=compliance.test`)).json()
      .payload;
    expect(emails(due.data)).toEqual(["kai", "kim", "pia"]);
    const paged = (await get(`compliance/people?q=Fixture&per_page=2&page=3`)).json().payload;
    expect(paged.meta).toEqual({ current_page: 3, per_page: 2, total: 7, last_page: 4 });
    const order = await get(`compliance/people?due_from=${addDays(today, 5)}&due_to=${addDays(today, 1)}`);
    expect(order.status).toBe(422);
    expect(Object.keys(order.json().payload.fields)).toEqual(["due_to"]);
  });
});

describe("who sees what", () => {
  it("lets a group admin see only the current members of the groups they administer", async () => {
    const { payload } = (await get("compliance", groupAdmin)).json();
    expect(payload.scope).toBe("groups");
    expect(payload.courses).toEqual([
      { course_id: ids.fire, title: "Fixture fire drill", ...counts(4, 1, 1, 2, 0) },
      { course_id: ids.aid, title: "Fixture first aid", ...counts(1, 0, 0, 0, 1) },
    ]);
    expect(payload.groups.map((g: { name: string }) => g.name)).toEqual(["Fixture team"]);
    expect(emails((await get("compliance/people?per_page=100", groupAdmin)).json().payload.data)).toEqual([
      "gro",
      "pal",
      "per",
      "pia",
      "pia",
    ]);
    expect((await get(`compliance?group_id=${ids.other}`, groupAdmin)).status).toBe(404);
    expect((await get(`compliance/people?group_id=${ids.other}`, groupAdmin)).status).toBe(404);
    // The dashboard's pages are the organization admin's; the CSV has the group admin's people.
    expect((await page("/dashboard/compliance", groupAdminCookie)).status).toBe(403);
    const csv = await page(`/dashboard/compliance/export?course_id=${ids.fire}`, groupAdminCookie);
    expect(csv.status).toBe(200);
    expect(csv.body.trim().split("\r\n")).toHaveLength(1 + 4);
  });

  it("refuses learners", async () => {
    expect((await get("compliance", learner)).status).toBe(403);
    expect((await get("compliance/people", learner)).status).toBe(403);
    expect((await page("/dashboard/compliance", learnerCookie)).status).toBe(403);
    expect((await page("/dashboard/compliance/export", learnerCookie)).status).toBe(403);
  });
});

describe("the dashboard's pages (JavaScript off)", () => {
  const cell = (html: string, table: string, id: number, column: string) => {
    const body = html.slice(html.indexOf(`data-testid="${table}"`));
    const row = body.slice(body.indexOf(`data-id="${id}"`));
    const match = new RegExp(`data-column="${column}"[^>]*>(?:<a [^>]*href="([^"]*)"[^>]*>)?([\\d\\s.,]+)<`).exec(row);
    return { text: match?.[2], href: match?.[1]?.replace(/&amp;/g, "&") };
  };

  it("shows the report per course and per group, each count linking to its people", async () => {
    const res = await page(`/dashboard/compliance?course_id=${ids.fire}`);
    expect(res.status).toBe(200);
    expect(cell(res.body, "compliance-courses", ids.fire, "assigned").text).toBe("6");
    const overdue = cell(res.body, "compliance-courses", ids.fire, "overdue");
    expect(overdue).toEqual({ text: "1", href: `/dashboard/compliance/people?course_id=${ids.fire}&state=overdue` });
    expect(cell(res.body, "compliance-groups", ids.team, "not_started")).toEqual({
      text: "2",
      href: `/dashboard/compliance/people?course_id=${ids.fire}&group_id=${ids.team}&state=not_started`,
    });
    expect(cell(res.body, "compliance-groups", ids.team, "overdue")).toEqual({ text: "0", href: undefined });
    // Following the link: the people behind the number.
    const people = await page(overdue.href!);
    expect(people.status).toBe(200);
    expect(people.body).toContain("kai@compliance.test");
    expect(people.body).not.toContain("kim@compliance.test");
  });

  it("filters the people list with the GET form, and shows a bad filter's error", async () => {
    const res = await page(`/dashboard/compliance/people?course_id=${ids.fire}&group_id=&state=assigned&due_from=&due_to=&q=P%C3%A5l`);
    expect(res.status).toBe(200);
    expect(res.body).toContain("pal@compliance.test");
    expect(res.body).not.toContain("pia@compliance.test");
    expect(res.body).toMatch(/<option value="assigned" selected="">/);
    // A bad filter is left out, its error shown (Nordlys's admin reads Danish); the valid ones still apply.
    const bad = await page(`/dashboard/compliance/people?due_from=2026-02-30&course_id=${ids.aid}`);
    expect(bad.status).toBe(200);
    expect(bad.body).toContain("Angiv en dato som ÅÅÅÅ-MM-DD.");
    expect(bad.body).toContain("Ugyldige filtre er udeladt.");
    expect(bad.body).toContain('data-course="' + ids.aid + '"');
    expect(bad.body).not.toContain('data-course="' + ids.fire + '"');
    expect((await page("/dashboard/compliance?group_id=999999")).status).toBe(404);
  });

  it("downloads the people list as CSV with the same filters", async () => {
    const res = await page(`/dashboard/compliance/export?course_id=${ids.fire}&state=done`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="compliance-${today}-done.csv"`);
    const [header, ...rows] = res.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(header).toBe("user_id,email,first_name,last_name,course_id,course,state,due_on,started,completed_at,expires_on,path_id,path");
    expect(rows.map((r) => r.split(",").slice(1, 3).join(" ")).sort()).toEqual(["kim@compliance.test Kim", "per@compliance.test Per"]);
    expect((await page("/dashboard/compliance/export?state=nope")).status).toBe(400);
  });

  it("shows assigned courses by state on the dashboard overview, linking to the report", async () => {
    const res = await page("/dashboard");
    expect(res.status).toBe(200);
    expect(res.body).toContain('data-testid="compliance-overview"');
    expect(res.body).toContain('href="/dashboard/compliance"');
    expect(res.body).toContain('href="/dashboard/compliance/people?state=overdue"');
  });
});
