import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Bulk actions on courses (issue 50; app/models/course-bulk/) against the real server: the courses list's ticked
 * rows and "all that match", the confirmation naming how many, each action's job and its counts, the audit, a
 * learner's pages after, refusals, and `POST /api/courses/bulk`. A hand-counted fixture of ten courses "Zcb 01" to
 * "Zcb 10": 01–05 in the category "Zcb from"; 01, 03, 05, 07 and 10 published, the others drafts; 09 a download
 * course without its file (its own page refuses to publish it); 10 with a lesson a learner has begun. "Zcb to" is empty.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
const BASE = "/dashboard/organizations/1/courses";
let admin: string;
let learner: string;
let from: number;
let to: number;
const ids: number[] = [];
const pad = (n: number) => String(n).padStart(2, "0");
const id = (n: number) => ids[n - 1];

function scalar<T = number>(sql: string, ...params: unknown[]): T {
  const db = tenantDb(server, 1);
  try {
    return Object.values(db.prepare(sql).get(...params) as object)[0] as T;
  } finally {
    db.close();
  }
}

const get = (path: string, cookie = admin) => request(server.port, ORG, path, { headers: { Cookie: cookie } });

function post(fields: [string, string | number][], cookie = admin) {
  const body = new URLSearchParams(fields.map(([k, v]) => [k, String(v)])).toString();
  return request(server.port, ORG, `${BASE}/bulk`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://${ORG}`, Cookie: cookie },
  });
}

const ticked = (...ns: number[]) => ns.map((n) => ["ids", id(n)] as [string, number]);

async function settle(jobId: number) {
  for (let i = 0; i < 200 && scalar<string>("select status from jobs where id = ?", jobId) !== "done"; i++)
    await new Promise((r) => setTimeout(r, 25));
}

/** The job a form started (its page's address), once it has finished, as its page shows it. */
async function finished(location: string | undefined) {
  const jobId = Number(new RegExp(`^${BASE}/bulk/(\\d+)$`).exec(location ?? "")?.[1]);
  expect(jobId, location).toBeGreaterThan(0);
  await settle(jobId);
  const page = await get(`${BASE}/bulk/${jobId}`);
  expect(page.status).toBe(200);
  return { jobId, body: page.body, result: JSON.parse(scalar<string>("select result from jobs where id = ?", jobId)) };
}

const count = (body: string) => /data-testid="bulk-count">([^<]*)</.exec(body)?.[1];
function rows(sql: string, ...params: unknown[]) {
  const db = tenantDb(server, 1);
  try {
    return db.prepare(sql).all(...params);
  } finally {
    db.close();
  }
}

const published = () =>
  (rows("select title from courses where title like 'Zcb %' and published = 1 order by title") as { title: string }[]).map((r) => r.title);

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  learner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
  execTenant(server, 1, "insert into categories (name) values ('Zcb from'), ('Zcb to')");
  from = scalar("select id from categories where name = 'Zcb from'");
  to = scalar("select id from categories where name = 'Zcb to'");
  for (let n = 1; n <= 10; n++) {
    execTenant(
      server,
      1,
      "insert into courses (title, type, published, category_id, position) values (?, ?, ?, ?, ?)",
      `Zcb ${pad(n)}`,
      n === 9 ? "download" : "series",
      [1, 3, 5, 7, 10].includes(n) ? 1 : 0,
      n <= 5 ? from : null,
      1000 + n,
    );
    ids.push(scalar("select id from courses where title = ?", `Zcb ${pad(n)}`));
  }
  execTenant(server, 1, "insert into lessons (course_id, title) values (?, 'Zcb lesson')", id(10));
  const lesson = scalar("select id from lessons where course_id = ?", id(10));
  const person = scalar("select id from users where email = 'learner@acme.test'");
  execTenant(server, 1, "insert into lesson_progress (user_id, lesson_id, course_id) values (?, ?, ?)", person, lesson, id(10));
});
afterAll(async () => {
  await server?.stop();
});

describe("a bulk action from the courses list", () => {
  it("shows the bar and a box on each row, and names how many ticked courses it reaches", async () => {
    const list = await get(`${BASE}?q=zcb`);
    expect(list.body).toContain('data-testid="bulk-bar"');
    expect(list.body).toContain("All 10 that match the list");
    expect(list.body).toContain(`<input type="checkbox" form="course-bulk" name="ids" aria-label="Choose Zcb 01" value="${id(1)}"/>`);
    const confirm = await get(`${BASE}/bulk?bulkAction=publish&${new URLSearchParams(ticked(1, 2, 4, 9).map(([k, v]) => [k, String(v)]))}`);
    expect(count(confirm.body)).toBe("This reaches the 4 courses you chose.");
    expect(confirm.body).toContain("Apply to 4 courses");
  });

  it("publishes them as each course's page would, refusing what it refuses, each change in the audit", async () => {
    const job = await finished((await post([["bulkAction", "publish"], ...ticked(1, 2, 4, 9)])).headers.location);
    // 1 was published already; 9, a download course without its file, cannot be.
    expect(job.result).toMatchObject({ action: "publish", total: 4, done: 2, unchanged: 1, refused: { invalid: 1 } });
    expect(scalar("select progress from jobs where id = ?", job.jobId)).toBe(100);
    expect(job.body).toContain("Done for 2 courses of 4.");
    expect(job.body).toContain("1 course already was as asked, and was left so.");
    expect(job.body).toContain("1 course could not be changed so: open it to see what it lacks.");
    expect(published()).toEqual(["Zcb 01", "Zcb 02", "Zcb 03", "Zcb 04", "Zcb 05", "Zcb 07", "Zcb 10"]);
    const audit = rows(
      "select subject_id, subject_email, subject_kind, via, actor_email, ip from admin_audit where action = 'course_published' and subject_email like 'Zcb %' order by subject_id",
    );
    expect(audit).toEqual(
      [2, 4].map((n) => ({
        subject_id: id(n),
        subject_email: `Zcb ${pad(n)}`,
        subject_kind: "course",
        via: "page",
        actor_email: "admin@acme.test",
        ip: "127.0.0.1",
      })),
    );
    const screen = await get("/dashboard/users/audit?subject=course&action=course_published");
    expect(screen.body).toContain("Course: Zcb 02");
    expect(screen.body).toContain("Course published");
  });

  it("unpublishes exactly the courses that match the list's filters, and a learner's pages follow", async () => {
    expect((await get(`/courses/${id(7)}`, learner)).status).toBe(200);
    expect((await get(`/courses/${id(10)}`, learner)).status).toBe(200);
    const confirm = await get(`${BASE}/bulk?bulkAction=unpublish&scope=all&q=zcb%200&state=published`);
    // Published and titled "Zcb 0…": 1–5 and 7 (10 is not "Zcb 0…").
    expect(count(confirm.body)).toBe("This reaches all 6 courses that match the list.");
    const job = await finished(
      (
        await post([
          ["bulkAction", "unpublish"],
          ["scope", "all"],
          ["q", "zcb 0"],
          ["state", "published"],
        ])
      ).headers.location,
    );
    expect(job.result).toMatchObject({ total: 6, done: 6, unchanged: 0, refused: {} });
    expect(published()).toEqual(["Zcb 10"]);
    expect((await get(`/courses/${id(7)}`, learner)).status).toBe(404);
    expect((await get(`/courses/${id(10)}`, learner)).status).toBe(200);
    expect(
      scalar(
        "select count(*) from admin_audit where action = 'course_unpublished' and subject_kind = 'course' and subject_email like 'Zcb %'",
      ),
    ).toBe(6);
  });

  it("moves the ticked courses to a category, then every course of a category out of all of them", async () => {
    const confirm = await get(`${BASE}/bulk?bulkAction=move&ids=${id(6)}&ids=${id(7)}&ids=${id(8)}`);
    expect(confirm.body).toContain(`<option value="${to}">Zcb to</option>`);
    expect(confirm.body).toContain('<option value="none">No category</option>');
    const moved = await finished((await post([["bulkAction", "move"], ["bulkCategory", to], ...ticked(6, 7, 8)])).headers.location);
    expect(moved.result).toMatchObject({ total: 3, done: 3 });
    expect(moved.body).toContain("Zcb to");
    expect(scalar("select count(*) from courses where category_id = ?", to)).toBe(3);
    expect(scalar("select count(*) from admin_audit where action = 'course_moved' and detail = 'Zcb to'")).toBe(3);
    const out = await finished(
      (
        await post([
          ["bulkAction", "move"],
          ["bulkCategory", "none"],
          ["scope", "all"],
          ["category", from],
        ])
      ).headers.location,
    );
    expect(out.result).toMatchObject({ total: 5, done: 5 });
    expect(scalar("select count(*) from courses where category_id = ?", from)).toBe(0);
    expect(scalar("select count(*) from admin_audit where action = 'course_moved' and detail is null")).toBe(5);
  });

  it("deletes only once the box is ticked, each course with everything in it", async () => {
    const confirm = await get(`${BASE}/bulk?bulkAction=delete&ids=${id(8)}&ids=${id(10)}`);
    expect(count(confirm.body)).toBe("This reaches the 2 courses you chose.");
    expect(confirm.body).toContain("Delete 2 courses");
    expect(confirm.body).toContain("Yes, delete these 2 courses and everything in them");
    const jobs = scalar("select count(*) from jobs");
    expect((await post([["bulkAction", "delete"], ...ticked(8, 10)])).status).toBe(400);
    expect(scalar("select count(*) from jobs")).toBe(jobs);
    const job = await finished((await post([["bulkAction", "delete"], ["confirmDelete", "yes"], ...ticked(8, 10)])).headers.location);
    expect(job.result).toMatchObject({ total: 2, done: 2 });
    expect(scalar("select count(*) from courses where id in (?, ?)", id(8), id(10))).toBe(0);
    expect(scalar("select count(*) from lessons where course_id = ?", id(10))).toBe(0);
    expect(scalar("select count(*) from lesson_progress where course_id = ?", id(10))).toBe(0);
    expect(scalar<string>("select group_concat(subject_email, ',') from admin_audit where action = 'course_deleted'")).toBe(
      "Zcb 08,Zcb 10",
    );
    expect((await get(`/courses/${id(10)}`, learner)).status).toBe(404);
  });

  it("refuses bad input with a translated message, and anyone who may not change courses, starting nothing", async () => {
    const jobs = () => scalar("select count(*) from jobs");
    const before = jobs();
    const cases: [string, string | number][][] = [
      [["bulkAction", "explode"], ...ticked(1)],
      [["bulkAction", "publish"]],
      [
        ["bulkAction", "publish"],
        ["scope", "all"],
        ["state", "emperor"],
      ],
      [["bulkAction", "move"], ...ticked(1)],
      [["bulkAction", "move"], ["bulkCategory", 999_999], ...ticked(1)],
      [["bulkAction", "publish"], ...Array.from({ length: 101 }, (_, i) => ["ids", i + 1] as [string, number])],
    ];
    for (const fields of cases) expect((await post(fields)).status, JSON.stringify(fields)).toBe(400);
    const bad = await get(`${BASE}/bulk?bulkAction=unpublish&scope=all&state=emperor`);
    expect(bad.status).toBe(200);
    expect(bad.body).toContain("The list&#x27;s filters are not valid: nothing was changed.");
    expect(bad.body).not.toContain('data-testid="bulk-apply"');
    // A learner, and a group admin (a learner who administers a group), reach neither the list nor its bulk actions.
    const groupAdmin = scalar("select id from users where email = 'learner@acme.test'");
    execTenant(server, 1, "insert into groups (name) values ('Zcb group')");
    execTenant(
      server,
      1,
      "insert into group_members (group_id, user_id, source, is_admin) values ((select id from groups where name = 'Zcb group'), ?, 'manual', 1)",
      groupAdmin,
    );
    const asGroupAdmin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    for (const cookie of [learner, asGroupAdmin]) {
      expect((await get(BASE, cookie)).status).toBe(403);
      expect((await get(`${BASE}/bulk?bulkAction=publish&ids=${id(2)}`, cookie)).status).toBe(403);
      expect((await post([["bulkAction", "unpublish"], ...ticked(1)], cookie)).status).toBe(403);
    }
    const token = insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "api" });
    expect((await api(server, ORG, "POST", "courses/bulk", { token, body: { action: "delete", course_ids: [id(1)] } })).status).toBe(403);
    expect(jobs()).toBe(before);
    expect(scalar("select count(*) from courses where title like 'Zcb %'")).toBe(8);
  });
});

describe("POST /api/courses/bulk", () => {
  it("acts on the courses a filter matches, and its job is read back until done", async () => {
    const token = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    const invalid = await api(server, ORG, "POST", "courses/bulk", { token, body: { action: "publish", filter: { state: "emperor" } } });
    expect(invalid.status).toBe(422);
    const noCategory = await api(server, ORG, "POST", "courses/bulk", { token, body: { action: "move", course_ids: [id(1)] } });
    expect(noCategory.status).toBe(422);
    // Drafts titled "Zcb 0…" now: 1–7 and 9 (8 was deleted); 9 cannot be published.
    const started = await api(server, ORG, "POST", "courses/bulk", {
      token,
      body: { action: "publish", filter: { q: "zcb 0", state: "draft" } },
    });
    expect(started.status, started.body).toBe(200);
    const jobId = started.json().payload.id as number;
    expect(started.json().payload).toMatchObject({ action: "publish", total: 8 });
    await settle(jobId);
    const read = await api(server, ORG, "GET", `courses/bulk/${jobId}`, { token });
    expect(read.json().payload).toMatchObject({ status: "done", progress: 100, total: 8, done: 7, unchanged: 0, refused: { invalid: 1 } });
    expect(scalar("select count(*) from admin_audit where action = 'course_published' and via = 'api'")).toBe(7);
    expect((await api(server, ORG, "GET", "courses/bulk/999999", { token })).status).toBe(404);
  });

  it("is there for a super-admin managing the organization, on the same screens", async () => {
    const cookie = await cookieFor(insertSession(server, "platform", { email: "super@lectern.test", kind: "web" }));
    const res = await request(server.port, "localhost", `/admin/organizations/1/courses/bulk?bulkAction=unpublish&scope=all&q=zcb`, {
      headers: { Cookie: cookie },
    });
    expect(res.status).toBe(200);
    expect(count(res.body)).toBe("This reaches all 8 courses that match the list.");
  });
});
