import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import da from "../../locales/da/fixes.json";
import { api, postForm, tenantDb } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Gaps closed after the first round: the course editor's quiz picker for `quiz` lessons, and badges that
 * admins edit and delete. All through the pages' form posts (no JavaScript), as Nordlys (Danish) speaks.
 */
let server: InProcessServer;
let cookie: string;
const ORG = "nordlys.localhost";
const T = da.fixes;

beforeAll(async () => {
  server = await startInProcess();
  cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
});
afterAll(() => server?.stop());

function query<R>(organizationId: number, sql: string, ...params: unknown[]): R[] {
  const db = tenantDb(server, organizationId);
  try {
    return db.prepare(sql).all(...params) as R[];
  } finally {
    db.close();
  }
}
const decode = (html: string) =>
  html
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

describe("the course editor's quiz picker", () => {
  const base = "/dashboard/organizations/2/courses";
  let courseId: number;
  let quizId: number;
  const lessonsOf = () =>
    query<{ id: number; title: string; kind: string; quiz_id: number | null }>(
      2,
      "select l.id, l.title, l.kind, ql.quiz_id from lessons l left join quiz_lessons ql on ql.lesson_id = l.id where l.course_id = ? order by l.position",
      courseId,
    );

  beforeAll(async () => {
    const created = await postForm(server, ORG, `${base}/create`, { title: "Quizvalg", type: "series" }, cookie);
    expect(created.status).toBe(302);
    courseId = Number(created.headers.location!.split("/").pop());
    quizId = query<{ id: number }>(2, "select id from quizzes order by id limit 1")[0]!.id;
  });

  it("lists the organization's quizzes in the lesson form", async () => {
    const page = await request(server.port, ORG, `${base}/${courseId}`, { headers: { Cookie: cookie } });
    const title = query<{ title: string }>(2, "select title from quizzes where id = ?", quizId)[0]!.title;
    expect(page.status).toBe(200);
    expect(decode(page.body)).toContain(`<option value="${quizId}">${title}</option>`);
    expect(page.body).toContain('name="lesson_quiz_id"');
  });

  it("refuses a quiz lesson without a quiz, or with one from another organization, changing nothing", async () => {
    const none = await postForm(
      server,
      ORG,
      `${base}/${courseId}`,
      { intent: "add-lesson", lesson_title: "Uden quiz", lesson_kind: "quiz" },
      cookie,
    );
    expect(none.status).toBe(400);
    expect(decode(none.body)).toContain(T.lessonQuiz.required);
    // A quiz that exists only in another organization's database.
    execTenant(
      server,
      1,
      "insert into quizzes (id, title, description, pass_min, created_at, updated_at) values (987654, 'Fremmed', '', 0, 0, 0)",
    );
    const foreign = await postForm(
      server,
      ORG,
      `${base}/${courseId}`,
      { intent: "add-lesson", lesson_title: "Fremmed quiz", lesson_kind: "quiz", lesson_quiz_id: "987654" },
      cookie,
    );
    expect(foreign.status).toBe(400);
    expect(decode(foreign.body)).toContain(T.lessonQuiz.unknown);
    const garbage = await postForm(
      server,
      ORG,
      `${base}/${courseId}`,
      { intent: "add-lesson", lesson_title: "Skrald", lesson_kind: "quiz", lesson_quiz_id: "1 or 1=1" },
      cookie,
    );
    expect(garbage.status).toBe(400);
    expect(lessonsOf()).toEqual([]);
  });

  it("adds a quiz lesson showing the chosen quiz, changes it on the lesson page, and lets it go when the kind changes", async () => {
    const added = await postForm(
      server,
      ORG,
      `${base}/${courseId}`,
      { intent: "add-lesson", lesson_title: "Test dig selv", lesson_kind: "quiz", lesson_quiz_id: String(quizId) },
      cookie,
    );
    expect(added.status, added.body.slice(0, 300)).toBe(302);
    const [lesson] = lessonsOf();
    expect(lesson).toMatchObject({ title: "Test dig selv", kind: "quiz", quiz_id: quizId });
    // A text lesson ignores a quiz posted with it.
    await postForm(
      server,
      ORG,
      `${base}/${courseId}`,
      { intent: "add-lesson", lesson_title: "Tekst", lesson_kind: "text", lesson_quiz_id: String(quizId) },
      cookie,
    );
    expect(lessonsOf()[1]).toMatchObject({ kind: "text", quiz_id: null });

    const other = (
      await postForm(
        server,
        ORG,
        "/dashboard/organizations/2/quizzes/create",
        { title: "Anden quiz", description: "", pass_min: "0" },
        cookie,
      )
    ).headers.location;
    const otherId = other
      ? Number(other.split("/").pop())
      : query<{ id: number }>(2, "select id from quizzes where title = 'Anden quiz'")[0]!.id;
    expect(otherId).toBeGreaterThan(0);
    const lessonPage = `${base}/${courseId}/lessons/${lesson!.id}`;
    const before = await request(server.port, ORG, lessonPage, { headers: { Cookie: cookie } });
    expect(before.body).toMatch(new RegExp(`<option value="${quizId}" selected=""`));
    const bad = await postForm(server, ORG, lessonPage, { lesson_title: "Test dig selv", lesson_kind: "quiz", lesson_quiz_id: "" }, cookie);
    expect(bad.status).toBe(400);
    expect(decode(bad.body)).toContain(T.lessonQuiz.required);
    expect(lessonsOf()[0]).toMatchObject({ quiz_id: quizId });
    expect(
      (
        await postForm(
          server,
          ORG,
          lessonPage,
          { lesson_title: "Test dig selv", lesson_kind: "quiz", lesson_quiz_id: String(otherId) },
          cookie,
        )
      ).status,
    ).toBe(302);
    expect(lessonsOf()[0]).toMatchObject({ quiz_id: otherId });
    expect(
      (await postForm(server, ORG, lessonPage, { lesson_title: "Nu tekst", lesson_kind: "text", lesson_body: "Hej" }, cookie)).status,
    ).toBe(302);
    expect(lessonsOf()[0]).toMatchObject({ title: "Nu tekst", kind: "text", quiz_id: null });
  });
});

describe("badges the admins edit and delete", () => {
  const tab = "/dashboard/organizations/2/leaderboard";
  type Badge = { id: number; name: string; description: string; rule: string; threshold: number; color: string };
  const badge = (id: number) => query<Badge>(2, "select id, name, description, rule, threshold, color from badges where id = ?", id)[0];

  it("saves every field of a badge, refuses bad input without changing it, and deletes it", async () => {
    const made = await postForm(
      server,
      ORG,
      tab,
      { intent: "badge", name: "Læsehest", description: "Ti lektioner", rule: "lessons_completed", threshold: "10", color: "#112233" },
      cookie,
    );
    expect(made.status).toBe(302);
    const id = query<{ id: number }>(2, "select id from badges where name = 'Læsehest'")[0]!.id;

    const page = await request(server.port, ORG, tab, { headers: { Cookie: cookie } });
    expect(page.body).toContain(`data-testid="edit-badge-${id}"`);
    expect(decode(page.body)).toContain(T.badges.edit.replace("{{name}}", "Læsehest"));

    const saved = await postForm(
      server,
      ORG,
      tab,
      {
        intent: "badge",
        id: String(id),
        name: "Bogorm",
        description: "Tyve kurser",
        rule: "courses_completed",
        threshold: "20",
        color: "#445566",
      },
      cookie,
    );
    expect(saved.status).toBe(302);
    expect(badge(id)).toEqual({
      id,
      name: "Bogorm",
      description: "Tyve kurser",
      rule: "courses_completed",
      threshold: 20,
      color: "#445566",
    });

    for (const bad of [{ threshold: "0" }, { name: "" }, { rule: "hacking" }, { color: "red" }]) {
      const res = await postForm(
        server,
        ORG,
        tab,
        { intent: "badge", id: String(id), name: "X", description: "", rule: "bookmarks", threshold: "3", color: "#000000", ...bad },
        cookie,
      );
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toContain('class="field-errors"');
      expect(badge(id)!.name).toBe("Bogorm");
    }
    const ghost = await postForm(
      server,
      ORG,
      tab,
      { intent: "badge", id: "999999", name: "Spøgelse", rule: "bookmarks", threshold: "3", color: "#000000" },
      cookie,
    );
    expect(ghost.status).toBe(400);
    expect(query(2, "select id from badges where name = 'Spøgelse'")).toEqual([]);

    expect((await postForm(server, ORG, tab, { intent: "delete-badge", id: String(id) }, cookie)).status).toBe(302);
    expect(badge(id)).toBeUndefined();
    expect((await postForm(server, ORG, tab, { intent: "delete-badge", id: String(id) }, cookie)).status).toBe(400);
  });

  it("lets only those who administer the leaderboard edit badges", async () => {
    const learner = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
    const id = query<{ id: number }>(2, "select id from badges order by id limit 1")[0]!.id;
    const before = badge(id);
    const res = await postForm(
      server,
      ORG,
      tab,
      { intent: "badge", id: String(id), name: "Kapret", rule: "bookmarks", threshold: "1", color: "#000000" },
      learner,
    );
    expect([403, 404]).toContain(res.status);
    expect(badge(id)).toEqual(before);
  });
});

describe("groups in the /admin area", () => {
  it("lets a super-admin create, edit, fill and delete an organization's group with the dashboard's screens", async () => {
    const superCookie = await cookieFor(insertSession(server, "platform", { email: "super@lectern.test", kind: "web" }));
    const base = "/admin/organizations/2/groups";
    const get = (p: string) => request(server.port, "localhost", p, { headers: { Cookie: superCookie } });
    const post = (p: string, fields: Record<string, string>) => postForm(server, "localhost", p, fields, superCookie);

    const list = await get(base);
    expect(list.status).toBe(200);
    expect(list.body).toContain(`href="${base}/create"`);
    expect((await post(`${base}/create`, { name: "" })).status).toBe(400);
    const created = await post(`${base}/create`, { name: "Platformgruppen", description: "Oprettet fra /admin" });
    expect(created.status, created.body.slice(0, 300)).toBe(302);
    expect(created.headers.location).toMatch(new RegExp(`^${base}/\\d+$`));
    const groupPath = created.headers.location!;
    const id = Number(groupPath.split("/").pop());
    expect(query<{ name: string }>(2, "select name from groups where id = ?", id)).toEqual([{ name: "Platformgruppen" }]);

    const page = await get(groupPath);
    expect(page.status).toBe(200);
    expect(page.body).toContain("Platformgruppen");
    const saved = await post(groupPath, { intent: "save", name: "Platformgruppen 2", description: "", ruleMatch: "all" });
    expect(saved.status, saved.body.slice(0, 300)).toBe(302);
    expect(query<{ name: string }>(2, "select name from groups where id = ?", id)).toEqual([{ name: "Platformgruppen 2" }]);
    const added = await post(groupPath, { intent: "add-member", email: "learner@nordlys.test" });
    expect(added.status, added.body.slice(0, 300)).toBe(302);
    expect((await get(groupPath)).body).toContain("learner@nordlys.test");

    expect((await get(`${groupPath}/delete`)).status).toBe(200);
    expect((await post(`${groupPath}/delete`, {})).status).toBe(302);
    expect(query(2, "select id from groups where id = ?", id)).toEqual([]);
    // The organization's own admin cannot reach the /admin area.
    const orgAdmin = await request(server.port, "localhost", base, { headers: { Cookie: cookie } });
    expect(orgAdmin.status).toBe(302);
  });
});

describe("a cloned course with a SCORM lesson", () => {
  const FIXTURES = path.resolve(__dirname, "../fixtures/scorm");
  const scormDir = () => path.join(server.dataDir, "org-2", "scorm");
  const upload = (courseId: number, lessonId: number, file: string) => {
    const { body, contentType } = multipart(
      {},
      { package: { name: file, type: "application/zip", data: fs.readFileSync(path.join(FIXTURES, file)) } },
    );
    return request(server.port, ORG, `/dashboard/organizations/2/courses/${courseId}/lessons/${lessonId}/scorm`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" },
      body,
    });
  };
  const launchOf = async (courseId: number, lessonId: number, learnerCookie: string) => {
    const page = await request(server.port, ORG, `/courses/${courseId}/lessons/${lessonId}`, { headers: { Cookie: learnerCookie } });
    expect(page.status).toBe(200);
    return page.body
      .match(/http:\/\/2\.scorm\.localhost:\d+(\/p\/[^"\\]+\/__lectern\/launch\/0)/)![1]!
      .replace(/__lectern\/launch\/0$/, "");
  };
  const content = (p: string) => request(server.port, `2.scorm.localhost:${server.port}`, p, {});

  it("plays its own copy of the package, untouched when the original's package is replaced; its quiz lesson shows the same quiz", async () => {
    const token = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
    const call = (method: string, p: string, body?: unknown) => api(server, ORG, method, p, { token, body });
    const course = (await call("POST", "courses", { title: "Golfkursus", type: "series", published: true, allow_quizzes: true })).json()
      .payload.id as number;
    const lesson = (await call("POST", "lessons", { course_id: course, title: "Golf 1.2", kind: "text" })).json().payload.id as number;
    expect((await upload(course, lesson, "singlesco_scorm12.zip")).status).toBe(302);
    const quizId = query<{ id: number }>(2, "select id from quizzes order by id limit 1")[0]!.id;
    expect(
      (
        await postForm(
          server,
          ORG,
          `/dashboard/organizations/2/courses/${course}`,
          { intent: "add-lesson", lesson_title: "Quiz", lesson_kind: "quiz", lesson_quiz_id: String(quizId) },
          cookie,
        )
      ).status,
    ).toBe(302);

    const job = (await call("POST", `courses/${course}/clone`)).json().payload.id as number;
    let result: { status: string; result: { course_id: number } } | undefined;
    for (let i = 0; i < 200 && !["done", "failed"].includes(result?.status ?? ""); i++) {
      await new Promise((r) => setTimeout(r, 100));
      result = (await call("GET", `jobs/${job}`)).json().payload;
    }
    expect(result?.status).toBe("done");
    const copy = result!.result.course_id;
    await call("PUT", `courses/${copy}`, { published: true });
    const copyLessons = query<{ id: number; kind: string; quiz_id: number | null }>(
      2,
      "select l.id, l.kind, ql.quiz_id from lessons l left join quiz_lessons ql on ql.lesson_id = l.id where l.course_id = ? order by l.position",
      copy,
    );
    expect(copyLessons.map((l) => [l.kind, l.quiz_id])).toEqual([
      ["scorm", null],
      ["quiz", quizId],
    ]);
    const copyLesson = copyLessons[0]!.id;

    const [original, copied] = [lesson, copyLesson].map(
      (id) =>
        query<{ folder: string; items: string; version: string; file_count: number }>(
          2,
          "select folder, items, version, file_count from scorm_packages where lesson_id = ?",
          id,
        )[0]!,
    );
    expect(copied).toBeDefined();
    expect(copied!.folder).not.toBe(original!.folder);
    expect(copied!.folder).toMatch(/^[a-f0-9]{24}$/);
    expect({ ...copied, folder: "" }).toEqual({ ...original, folder: "" });
    const files = (folder: string) => (fs.readdirSync(path.join(scormDir(), folder), { recursive: true }) as string[]).sort();
    expect(files(copied!.folder)).toEqual(files(original!.folder));
    expect(fs.readdirSync(scormDir()).filter((f) => f.startsWith(".incoming-"))).toEqual([]);

    // The learner plays the copy from its own folder.
    const learner = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
    const base = await launchOf(copy, copyLesson, learner);
    expect((await content(`${base}shared/launchpage.html`)).status).toBe(200);

    // Replacing the original's package removes the original folder, not the copy's.
    expect((await upload(course, lesson, "RuntimeBasicCalls_SCORM20043rdEdition.zip")).status).toBe(302);
    expect(fs.existsSync(path.join(scormDir(), original!.folder))).toBe(false);
    expect(fs.existsSync(path.join(scormDir(), copied!.folder))).toBe(true);
    const again = await launchOf(copy, copyLesson, learner);
    expect((await content(`${again}shared/launchpage.html`)).status).toBe(200);
  });
});
