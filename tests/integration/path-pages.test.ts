import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, postForm, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * The learner's learning path pages against the real server (issue 49), as a browser without JavaScript uses
 * them: /paths lists what a person sees (and search finds it), /paths/{id} shows each step's state in words, enrolment is a plain
 * form, the home page's "Your paths" and a course page's "step N of M" follow at once (they are kept pages), a
 * course the learner cannot see is not named, and what a learner may not do changes nothing.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
let admin: string;
let cookie: string;
let other: string;
const courses: number[] = [];
let pathId: number;
let closedPathId: number;

const page = (path: string, as = cookie) => request(server.port, ORG, path, { headers: as ? { Cookie: as } : {} });
/** The text of a page's markup, tags dropped and spaces squeezed, to look for what a person reads. */
const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

beforeAll(async () => {
  server = await startInProcess();
  admin = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
  // A learner on no demo path, so what they see is this file's alone.
  cookie = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "priya.garcia.1@acme.test", kind: "web" }));
  other = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "sofia.wright.2@acme.test", kind: "web" }));
  execTenant(
    server,
    1,
    "delete from path_enrolments where user_id in (select id from users where email in (?, ?))",
    "priya.garcia.1@acme.test",
    "sofia.wright.2@acme.test",
  );
  for (const title of ["Path start", "Path elective A", "Path elective B", "Path hidden"]) {
    const course = (await api(server, ORG, "POST", "courses", { token: admin, body: { title, type: "series", published: true } })).json()
      .payload.id;
    courses.push(course);
    await api(server, ORG, "POST", "lessons", { token: admin, body: { course_id: course, title: `${title} lesson`, kind: "text" } });
  }
  // The last course is open to one group the learners are not in: a path holding it does not open it.
  const group = (await api(server, ORG, "POST", "groups", { token: admin, body: { name: "Path insiders" } })).json().payload.id;
  execTenant(server, 1, "update courses set block_default_access = 1 where id = ?", courses[3]);
  execTenant(server, 1, "insert into group_courses (group_id, course_id) values (?, ?)", group, courses[3]);
  const made = await api(server, ORG, "POST", "learning-paths", {
    token: admin,
    body: { title: "Field onboarding", description: "<p>Start here.</p>", published: true },
  });
  pathId = made.json().payload.id;
  await api(server, ORG, "PUT", `learning-paths/${pathId}/steps`, {
    token: admin,
    body: {
      steps: [
        { course_ids: [courses[0]] },
        { kind: "choice", title: "Electives", course_ids: [courses[1], courses[2]], required: 1, delay_days: 2 },
        { course_ids: [courses[3]] },
      ],
    },
  });
  const closed = await api(server, ORG, "POST", "learning-paths", {
    token: admin,
    body: { title: "Given by admins", published: true, self_enrol: false },
  });
  closedPathId = closed.json().payload.id;
  await api(server, ORG, "PUT", `learning-paths/${closedPathId}/steps`, { token: admin, body: { steps: [{ course_ids: [courses[0]] }] } });
});
afterAll(async () => {
  await server?.stop();
});

describe("the learner's learning path pages", () => {
  it("list the paths a person sees, and show a path's steps before enrolling, with a form to enrol", async () => {
    const list = await page("/paths");
    expect(list.status).toBe(200);
    expect(text(list.body)).toContain("Field onboarding");
    expect(text(list.body)).toContain("Given by admins");
    const res = await page(`/paths/${pathId}`);
    expect(res.status).toBe(200);
    const words = text(res.body);
    expect(words).toContain("Field onboarding");
    expect(words).toMatch(
      /Step 1 .*Path start.*Step 2 · Electives .*Choose any 1 of these 2.*Opens 2 days after the step before it is done/,
    );
    // The course the learner cannot see is on the path but not named, nor linked.
    expect(words).toContain("A course not open to you");
    expect(res.body).not.toContain("Path hidden");
    expect(res.body).not.toContain(`href="/courses/${courses[3]}"`);
    expect(res.body).toMatch(/<button[^>]*name="intent"[^>]*value="enrol"/);
    // Search finds it by a word of its description, above the courses.
    const found = await page("/search?q=start%20HERE");
    expect(found.body).toContain(`href="/paths/${pathId}"`);
    expect((await page("/search?q=no-such-words-anywhere")).body).not.toContain('data-testid="search-paths"');
    // Without a session: a link to sign in and come back.
    const visitor = await page(`/paths/${pathId}`, "");
    expect(visitor.body).toContain(`/auth/login?redirectTo=%2Fpaths%2F${pathId}`);
  });

  it("enrol a learner by the plain form, and show their progress, the next lesson and the path on home and course pages at once", async () => {
    // Kept before: the home and the course page, as the learner last saw them.
    expect((await page("/")).body).not.toContain('data-testid="home-paths"');
    expect((await page(`/courses/${courses[0]}`)).body).not.toContain('data-testid="course-path"');
    const enrolled = await postForm(server, ORG, `/paths/${pathId}`, { intent: "enrol" }, cookie);
    expect(enrolled.status).toBe(303);
    expect(enrolled.headers.location).toBe(`/paths/${pathId}`);
    const res = await page(`/paths/${pathId}`);
    const words = text(res.body);
    expect(words).toContain("You are on this path");
    expect(words).toContain("0 % done");
    expect(words).toMatch(/Continue Path start · Path start lesson/);
    expect(words).toMatch(/Open · 0 of 1 done/);
    expect(words).toMatch(/Opens 2 days after step 1 is done/);
    expect(words).toMatch(/Opens when step 2 is done/);
    expect(res.body).not.toMatch(/value="enrol"/);
    const home = await page("/");
    expect(home.body).toContain('data-testid="home-paths"');
    expect(text(home.body)).toMatch(/Your paths.*Field onboarding/);
    expect(text((await page(`/courses/${courses[0]}`)).body)).toContain("Step 1 of 3 of your path Field onboarding");
    expect(text((await page(`/courses/${courses[2]}`)).body)).toContain("Step 2 of 3 of your path Field onboarding");
  });

  it("show a step done, the next waiting out its delay with its day, and the percentage, once a course is completed", async () => {
    // The path page is kept for the learner (asked for twice: server/learner-page-cache.ts), then a completion
    // written by another connection shows at once.
    for (let i = 0; i < 2; i++) expect(text((await page(`/paths/${pathId}`)).body)).toContain("0 % done");
    execTenant(
      server,
      1,
      "insert into course_completions (user_id, course_id, completed_at) select id, ?, unixepoch() from users where email = ?",
      courses[0],
      "priya.garcia.1@acme.test",
    );
    const words = text((await page(`/paths/${pathId}`)).body);
    expect(words).toMatch(/Step 1 .*Done on /);
    expect(words).toMatch(/Step 2 · Electives .*Opens on /);
    expect(words).toContain("33 % done");
    expect(text((await page("/")).body)).toMatch(/Field onboarding 33 % done/);
  });

  it("refuse what a learner may not do, changing nothing", async () => {
    // A path that takes no enrolments: no form, and the form's post is refused.
    const closed = await page(`/paths/${closedPathId}`, other);
    expect(text(closed.body)).toContain("you cannot start it yourself");
    expect((await postForm(server, ORG, `/paths/${closedPathId}`, { intent: "enrol" }, other)).status).toBe(404);
    // A malformed form, a draft path, an id that is not one.
    expect((await postForm(server, ORG, `/paths/${pathId}`, { intent: "leave" }, other)).status).toBe(400);
    execTenant(server, 1, "update learning_paths set published = 0 where id = ?", closedPathId);
    expect((await page(`/paths/${closedPathId}`, other)).status).toBe(404);
    expect((await page("/paths/nope", other)).status).toBe(404);
    // A visitor's post goes to sign in.
    const visitor = await postForm(server, ORG, `/paths/${pathId}`, { intent: "enrol" });
    expect(visitor.status).toBe(302);
    expect(visitor.headers.location).toContain("/auth/login");
    const db = tenantDb(server, 1);
    try {
      const row = db
        .prepare("select count(*) as n from path_enrolments e join users u on u.id = e.user_id where u.email = ?")
        .get("sofia.wright.2@acme.test") as { n: number };
      expect(row.n).toBe(0);
    } finally {
      db.close();
    }
  });

  it("offer to take an expired path again, which starts its next cycle (and refuse it before it expires)", async () => {
    expect((await postForm(server, ORG, `/paths/${pathId}`, { intent: "renew" }, cookie)).status).toBe(409);
    execTenant(
      server,
      1,
      "update path_enrolments set completed_at = unixepoch() - 400 * 86400, expires_on = '2020-01-01' where path_id = ? and user_id = (select id from users where email = ?)",
      pathId,
      "priya.garcia.1@acme.test",
    );
    const expired = await page(`/paths/${pathId}`);
    expect(text(expired.body)).toContain("Your completion expired on 1. jan. 2020");
    expect(expired.body).toMatch(/<button[^>]*name="intent"[^>]*value="renew"/);
    expect((await postForm(server, ORG, `/paths/${pathId}`, { intent: "renew" }, cookie)).status).toBe(303);
    const db = tenantDb(server, 1);
    try {
      const row = db
        .prepare(
          "select cycle, completed_at, expires_on from path_enrolments where path_id = ? and user_id = (select id from users where email = ?)",
        )
        .get(pathId, "priya.garcia.1@acme.test");
      expect(row).toEqual({ cycle: 2, completed_at: null, expires_on: null });
    } finally {
      db.close();
    }
    // The course completed in the first cycle does not count in the second.
    expect(text((await page(`/paths/${pathId}`)).body)).toContain("0 % done");
  });

  it("list a category's paths on its page, which a visitor's kept copy follows at once", async () => {
    const category = Number(execTenant(server, 1, "insert into categories (name) values ('Path shelf')").lastInsertRowid);
    execTenant(server, 1, "update learning_paths set category_id = ? where id = ?", category, pathId);
    // Asked for twice by a visitor: kept (server/page-cache.ts); then renamed by another connection.
    for (let i = 0; i < 2; i++) expect((await page(`/categories/${category}`, "")).body).toContain("Field onboarding");
    execTenant(server, 1, "update learning_paths set title = 'Field onboarding, renewed' where id = ?", pathId);
    const shown = await page(`/categories/${category}`, "");
    expect(shown.body).toContain('data-testid="category-paths"');
    expect(shown.body).toContain("Field onboarding, renewed");
  });
});
