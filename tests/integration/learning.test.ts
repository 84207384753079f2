import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

let server: InProcessServer;
let admin: string;
let learner: string;
let other: string;
const ORG = "nordlys.localhost";

beforeAll(async () => {
  server = await startInProcess();
  execTenant(server, 2, "insert into users (email, first_name, role) values ('other@nordlys.test', 'Olga', 'learner')");
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  other = insertSession(server, { organizationId: 2 }, { email: "other@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });

async function courseWithLessons(fields: Record<string, unknown>, titles = ["Første", "Anden"]) {
  const course = (await call("POST", "courses", { type: "series", published: true, ...fields })).json().payload;
  const lessons: number[] = [];
  for (const title of titles)
    lessons.push(
      (await call("POST", "lessons", { course_id: course.id, title, kind: "text", body: `<p>${title} tekst</p>` })).json().payload.id,
    );
  return { id: course.id as number, lessons };
}

describe("progress", () => {
  it("credits no more watch time than passed, over all lessons together, and none for reading", async () => {
    const course = (await call("POST", "courses", { title: "Video", type: "series", published: true })).json().payload;
    const videos: number[] = [];
    for (const title of ["V1", "V2", "V3"]) {
      videos.push(
        (await call("POST", "lessons", { course_id: course.id, title, kind: "video", video_url: "https://example.org/v.mp4" })).json()
          .payload.id,
      );
    }
    const text = (await call("POST", "lessons", { course_id: course.id, title: "T", kind: "text" })).json().payload.id;
    const beat = (lesson: number, seconds: number) =>
      call("POST", "lesson-progresses", { lesson_id: lesson, position_seconds: 10, watched_seconds: seconds }, learner).then(
        (r) => r.json().payload,
      );
    expect((await beat(videos[0], 3600)).credited_seconds).toBe(0); // the first heartbeat only starts the clock
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 2100));
    // Three lessons at once, each claiming an hour: together they get no more than the time that passed.
    const credited = (await Promise.all(videos.map((v) => beat(v, 3600)))).reduce((sum, p) => sum + p.credited_seconds, 0);
    const elapsed = (Date.now() - started) / 1000;
    expect(credited).toBeGreaterThanOrEqual(2);
    expect(credited).toBeLessThanOrEqual(Math.ceil(elapsed));
    // Rapid heartbeats gain nothing extra either.
    let rapid = 0;
    for (let i = 0; i < 10; i++) rapid += (await beat(videos[0], 60)).credited_seconds;
    expect(rapid).toBeLessThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await beat(text, 60)).credited_seconds).toBe(0);
    const progress = (await call("GET", `lesson-progresses/course/${course.id}`, undefined, learner)).json().payload;
    expect(progress.watched_seconds).toBe(credited + rapid);
  });

  it("completes a course when all its lessons are completed", async () => {
    const { id, lessons } = await courseWithLessons({ title: "Fuldført" });
    await call("POST", "lesson-progresses", { lesson_id: lessons[0], completed: true }, learner);
    let progress = (await call("GET", `lesson-progresses/course/${id}`, undefined, learner)).json().payload;
    expect(progress).toMatchObject({ lessons: 2, completed_lessons: 1, percent: 50, completed: false });
    const last = await call("POST", "lesson-progresses", { lesson_id: lessons[1], completed: true }, learner);
    expect(last.json().payload.course_completed).toBe(true);
    progress = (await call("GET", `lesson-progresses/course/${id}`, undefined, learner)).json().payload;
    expect(progress).toMatchObject({ completed_lessons: 2, percent: 100, completed: true });
    const courses = (await call("GET", "lesson-progresses/courses", undefined, learner)).json().payload.data;
    expect(courses.find((c: { course_id: number }) => c.course_id === id)).toMatchObject({ completed: true });
  });
});

describe("one learner and another", () => {
  it("cannot read or change each other's progress, bookmarks or ratings", async () => {
    const { id, lessons } = await courseWithLessons({ title: "Privat" });
    await call("POST", "lesson-progresses", { lesson_id: lessons[0], completed: true }, learner);
    await call("POST", "bookmarks", { course_id: id }, learner);
    await call("POST", "courses/ratings", { course_id: id, stars: 5 }, learner);

    const theirs = (await call("GET", "lesson-progresses", undefined, other)).json().payload.data;
    expect(theirs).toEqual([]);
    expect((await call("GET", `lesson-progresses/course/${id}`, undefined, other)).json().payload.completed_lessons).toBe(0);
    expect((await call("GET", "bookmarks", undefined, other)).json().payload.data).toEqual([]);
    expect((await call("DELETE", `bookmarks/${id}`, undefined, other)).status).toBe(404);
    expect(
      (await call("GET", "bookmarks", undefined, learner)).json().payload.data.map((b: { course_id: number }) => b.course_id),
    ).toContain(id);
    await call("POST", "courses/ratings", { course_id: id, stars: 1 }, other);
    const mine = (await call("GET", `courses/ratings?course_id=${id}`, undefined, learner)).json().payload;
    expect(mine).toMatchObject({ average: 3, count: 2, mine: 5 });
    // A body naming another user is simply not about anyone else: fields it may not set are dropped.
    const sneaky = await call("POST", "lesson-progresses", { lesson_id: lessons[1], completed: true, user_id: 1 }, other);
    expect(sneaky.status).toBe(200);
    expect((await call("GET", `lesson-progresses/course/${id}`, undefined, learner)).json().payload.completed_lessons).toBe(1);
  });

  it("lists one's own progress newest first, a page at a time, and lands a learner who has started at home", async () => {
    execTenant(server, 2, "insert into users (email, first_name, role) values ('pia@nordlys.test', 'Pia', 'learner')");
    const pia = insertSession(server, { organizationId: 2 }, { email: "pia@nordlys.test", kind: "api" });
    const web = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "pia@nordlys.test", kind: "web" }));
    const landing = () => request(server.port, ORG, "/auth/redirect", { headers: { Cookie: web } }).then((r) => r.headers.location);
    expect(await landing()).toBe("/welcome");
    const { lessons } = await courseWithLessons({ title: "Rækkefølge" }, ["En", "To", "Tre"]);
    for (const lesson of lessons) await call("POST", "lesson-progresses", { lesson_id: lesson }, pia);
    await call("POST", "lesson-progresses", { lesson_id: lessons[0] }, other); // someone else's: never listed
    // Seconds apart on purpose (updated_at has second precision): the middle lesson is the newest.
    lessons.forEach((lesson, i) =>
      execTenant(server, 2, "update lesson_progress set updated_at = ? where lesson_id = ?", 1_700_000_000 + [0, 20, 10][i], lesson),
    );
    const page = (n: number) => call("GET", `lesson-progresses?per_page=2&page=${n}`, undefined, pia).then((r) => r.json().payload);
    const first = await page(1);
    expect(first.data.map((p: { lesson_id: number }) => p.lesson_id)).toEqual([lessons[1], lessons[2]]);
    expect(first.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    expect((await page(2)).data.map((p: { lesson_id: number }) => p.lesson_id)).toEqual([lessons[0]]);
    expect(await landing()).toBe("/");
  });
});

describe("unpublished courses", () => {
  it("never reach a learner: not in lists, search, single reads, lessons, bookmarks or pages", async () => {
    const { id, lessons } = await courseWithLessons({ title: "Hemmelig zebrakursus", published: false });
    const listed = (await call("GET", "courses?per_page=100", undefined, learner)).json().payload.data.map((c: { id: number }) => c.id);
    expect(listed).not.toContain(id);
    expect((await call("GET", "search?q=zebrakursus", undefined, learner)).json().payload.data).toEqual([]);
    expect((await call("GET", "search?q=zebrakursus")).json().payload.data.length).toBeGreaterThan(0);
    expect((await call("GET", `courses/${id}`, undefined, learner)).status).toBe(404);
    expect((await call("GET", `lessons?course_id=${id}`, undefined, learner)).json().payload.data).toEqual([]);
    expect((await call("GET", `lessons/${lessons[0]}`, undefined, learner)).status).toBe(404);
    expect((await call("POST", "bookmarks", { course_id: id }, learner)).status).toBe(404);
    expect((await call("POST", "lesson-progresses", { lesson_id: lessons[0] }, learner)).status).toBe(404);
    expect((await request(server.port, ORG, `/courses/${id}`)).status).toBe(404);
    const home = await request(server.port, ORG, "/");
    expect(home.body).not.toContain("zebrakursus");
    const page = await request(server.port, ORG, "/search?q=zebrakursus");
    expect(page.body).not.toContain("Hemmelig zebra");
  });
});

describe("the heartbeat and changes to content", () => {
  it("sees a course unpublished, a lesson moved or deleted on the very next beat, through the app or another connection", async () => {
    const { id, lessons } = await courseWithLessons({ title: "Hjerteslag" });
    const other = await courseWithLessons({ title: "Andet kursus", published: false });
    const beat = (lesson: number) =>
      call("POST", "lesson-progresses", { lesson_id: lesson, position_seconds: 5, watched_seconds: 1 }, learner);
    expect((await beat(lessons[0])).status).toBe(200);
    // Unpublished by another connection (a script beside the server): the next beat is refused.
    execTenant(server, 2, "update courses set published = 0 where id = ?", id);
    expect((await beat(lessons[0])).status).toBe(404);
    // Published again through the app.
    expect((await call("PUT", `courses/${id}`, { published: true })).status).toBe(200);
    expect((await beat(lessons[0])).status).toBe(200);
    // The lesson moved into an unpublished course: refused; the course's editor may still preview it.
    execTenant(server, 2, "update lessons set course_id = ? where id = ?", other.id, lessons[1]);
    expect((await beat(lessons[1])).status).toBe(404);
    expect((await call("POST", "lesson-progresses", { lesson_id: lessons[1], position_seconds: 5 })).status).toBe(200);
    // Deleted: gone at once.
    expect((await call("DELETE", `lessons/${lessons[0]}`)).status).toBeLessThan(300);
    expect((await beat(lessons[0])).status).toBe(404);
  });
});

describe("search", () => {
  it("finds courses, lessons and materials by a word, ranked, and stays current on edits", async () => {
    const { id, lessons } = await courseWithLessons({ title: "Nordlysets fysik" }, ["Solvind og magnetfelter", "Farverne"]);
    const hits = (await call("GET", "search?q=solvind", undefined, learner)).json().payload.data;
    expect(hits[0]).toMatchObject({ kind: "lesson", id: lessons[0], course_id: id });
    const course = (await call("GET", "search?q=nordlysets", undefined, learner)).json().payload.data;
    expect(course[0]).toMatchObject({ kind: "course", id });
    await call("PUT", `lessons/${lessons[1]}`, { title: "Aurora borealis" });
    expect((await call("GET", "search?q=aurora", undefined, learner)).json().payload.data[0]).toMatchObject({ id: lessons[1] });
    // The old title is gone from the index; the hit for the body's word now carries the new title.
    expect((await call("GET", "search?q=farverne", undefined, learner)).json().payload.data.map((h: { title: string }) => h.title)).toEqual(
      ["Aurora borealis"],
    );
    await call("DELETE", `lessons/${lessons[0]}`);
    expect((await call("GET", "search?q=solvind", undefined, learner)).json().payload.data).toEqual([]);
    const hostile = `search?q=${encodeURIComponent('" OR 1=1 -- * NEAR(')}`;
    expect((await call("GET", hostile, undefined, learner)).status).toBe(200); // no FTS syntax errors
  });
});

describe("access messages", () => {
  async function pageFor(courseId: number, token?: string) {
    const cookie = token ? await cookieFor(token) : undefined;
    return request(server.port, ORG, `/courses/${courseId}`, { headers: cookie ? { Cookie: cookie } : {} });
  }
  const reason = (body: string) => body.match(/data-reason="([a-z_]+)"/)?.[1] ?? null;
  const web = (email: string) => insertSession(server, { organizationId: 2 }, { email, kind: "web" });

  it("asks visitors to log in", async () => {
    const { id } = await courseWithLessons({ title: "Åben" });
    const res = await pageFor(id);
    expect(reason(res.body)).toBe("login");
    expect(res.body).toContain("Log ind for at fortsætte");
  });

  it("limits a course blocked by default to its groups", async () => {
    const { id, lessons } = await courseWithLessons({ title: "Blokeret", block_default_access: true });
    expect(reason((await pageFor(id, web("learner@nordlys.test"))).body)).toBe("limited");
    expect((await call("POST", "lesson-progresses", { lesson_id: lessons[0] }, learner)).json().payload.code).toBe("limited");
    execTenant(server, 2, "insert into groups (name) values ('Adgang')");
    execTenant(server, 2, `insert into group_courses (group_id, course_id) select max(id), ${id} from groups`);
    execTenant(
      server,
      2,
      "insert into group_members (group_id, user_id) select (select max(id) from groups), id from users where email = 'learner@nordlys.test'",
    );
    expect(reason((await pageFor(id, web("learner@nordlys.test"))).body)).toBeNull();
  });

  it("asks to complete the previous course first", async () => {
    const first = await courseWithLessons({ title: "Trin 1" }, ["Kun lektion"]);
    const second = await courseWithLessons({ title: "Trin 2", prerequisite_course_id: first.id });
    const cookie = web("other@nordlys.test");
    const res = await pageFor(second.id, cookie);
    expect(reason(res.body)).toBe("prerequisite");
    await call("POST", "lesson-progresses", { lesson_id: first.lessons[0], completed: true }, other);
    expect(reason((await pageFor(second.id, cookie)).body)).toBeNull();
  });

  it("asks to complete previous lessons where the order is enforced, and the form completes them", async () => {
    const { id, lessons } = await courseWithLessons({ title: "I rækkefølge", sequential_lessons: true }, ["Et", "To", "Tre"]);
    const token = web("other@nordlys.test");
    const cookie = await cookieFor(token);
    const locked = await request(server.port, ORG, `/courses/${id}/lessons/${lessons[1]}`, { headers: { Cookie: cookie } });
    expect(reason(locked.body)).toBe("previous_lessons");
    const done = await postForm(server, ORG, `/courses/${id}/lessons/${lessons[0]}`, { intent: "complete" }, cookie);
    expect(done.status).toBe(302);
    expect(done.headers.location).toBe(`/courses/${id}/lessons/${lessons[1]}`);
    const open = await request(server.port, ORG, `/courses/${id}/lessons/${lessons[1]}`, { headers: { Cookie: cookie } });
    expect(reason(open.body)).toBeNull();
    expect(open.body).toContain("To tekst");
  });
});

describe("the rules hold in /api as on the pages", () => {
  it("keeps a limited course's lessons and materials, and a locked lesson's text, from a learner", async () => {
    const limited = await courseWithLessons({ title: "Kun for gruppen", force_groups: true }, ["Gruppelektion"]);
    const listed = (await call("GET", `lessons?course_id=${limited.id}`, undefined, other)).json().payload.data;
    expect(listed).toEqual([]);
    expect((await call("GET", `lessons/${limited.lessons[0]}`, undefined, other)).status).toBe(404);
    const hits = (await call("GET", "search?q=gruppelektion", undefined, other)).json().payload.data;
    expect(hits).toEqual([]);

    const ordered = await courseWithLessons({ title: "Trinvis", sequential_lessons: true }, ["Begyndelsen", "Hemmeligheden"]);
    const second = (await call("GET", `lessons/${ordered.lessons[1]}`, undefined, other)).json().payload;
    expect(second).toMatchObject({ title: "Hemmeligheden", body: "", locked: true });
    const snippet = (await call("GET", "search?q=hemmeligheden", undefined, other)).json().payload.data[0];
    expect(snippet).toMatchObject({ kind: "lesson", snippet: "" });
    expect((await call("GET", `lessons/${ordered.lessons[1]}`)).json().payload.body).toBe("<p>Hemmeligheden tekst</p>");
  });

  it("refuses prerequisites that go round in a circle", async () => {
    const a = (await call("POST", "courses", { title: "A" })).json().payload;
    const b = (await call("POST", "courses", { title: "B", prerequisite_course_id: a.id })).json().payload;
    const loop = await call("PUT", `courses/${a.id}`, { prerequisite_course_id: b.id });
    expect(loop.status).toBe(422);
    expect(loop.json().payload.fields).toHaveProperty("prerequisite_course_id");
  });

  it("puts a new course at the end and keeps its place when it is saved again", async () => {
    const created = (await call("POST", "courses", { title: "Sidst" })).json().payload;
    const all = (await call("GET", "courses?per_page=100")).json().payload.data;
    expect(all[all.length - 1].id).toBe(created.id);
    await call("PUT", `courses/${created.id}`, { title: "Stadig sidst" });
    const again = (await call("GET", "courses?per_page=100")).json().payload.data;
    expect(again[again.length - 1].id).toBe(created.id);
  });
});
