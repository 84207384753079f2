import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { checkReply } from "../helpers/contract";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";
import { makeZip, manifest12 } from "../helpers/zip";

/**
 * Issue 45, items 3 and 4, against the real server: one lesson state (not started, in progress, completed)
 * for every kind of lesson, shown alike on the course page and /api, SCORM lessons included; and SCORM
 * packages installed through /api with the lesson editor's checks, never a 201 for a lesson that cannot play.
 * Nordlys speaks Danish.
 */
let server: InProcessServer;
let admin: string;
let learnerApi: string;
let learner: string;
const ORG = "nordlys.localhost";
const FIXTURES = path.resolve(__dirname, "../fixtures/scorm");
const danish = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../../locales/da/scorm.json"), "utf8"));
const zip = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

beforeAll(async () => {
  server = await startInProcess();
  execTenant(server, 2, "insert into users (email, first_name, role) values ('state@nordlys.test', 'Stine', 'learner')");
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learnerApi = insertSession(server, { organizationId: 2 }, { email: "state@nordlys.test", kind: "api" });
  learner = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "state@nordlys.test", kind: "web" }));
});
afterAll(() => server?.stop());

const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });
const page = (p: string) => request(server.port, ORG, p, { headers: { Cookie: learner } });
const scormFolders = () => {
  const dir = path.join(server.dataDir, "org-2", "scorm");
  return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
};

/** A file uploaded to the library with POST /api/files (held to its contract like every /api reply). */
async function uploadFile(data: Buffer, name: string) {
  const { body, contentType } = multipart({}, { file: { name, type: "application/zip", data } });
  const res = await request(server.port, ORG, "/api/files", {
    method: "POST",
    headers: { Authorization: `Bearer ${admin}`, "Content-Type": contentType },
    body,
  });
  checkReply("POST", "/api/files", res);
  expect(res.status, res.body).toBe(201);
  return res.json().payload.id as number;
}

/** A package installed with the lesson editor's form (the way that works today), for the state tests. */
async function editorUpload(courseId: number, lessonId: number, file: string) {
  const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  const { body, contentType } = multipart({}, { package: { name: file, type: "application/zip", data: zip(file) } });
  const res = await request(server.port, ORG, `/dashboard/organizations/2/courses/${courseId}/lessons/${lessonId}/scorm`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" },
    body,
  });
  expect(res.status).toBe(302);
}

/** Each episode's `data-state` on the course page, by title, and the hero's play button. */
async function coursePage(courseId: number) {
  const res = await page(`/courses/${courseId}`);
  expect(res.status).toBe(200);
  const states = Object.fromEntries(
    [...res.body.matchAll(/data-state="([a-z_]+)"[^>]*data-lesson="([^"]+)"/g)].map((m) => [m[2], m[1]] as const),
  );
  const start = /<a[^>]*data-testid="start"[^>]*>([\s\S]*?)<\/a>/.exec(res.body)?.[1] ?? "";
  return { states, start: start.replace(/<[^>]+>/g, " "), body: res.body };
}

/** One episode's item on the course page, as text. */
const episode = (body: string, title: string) =>
  (new RegExp(`<li[^>]*data-lesson="${title}"[^>]*>([\\s\\S]*?)</li>`).exec(body)?.[1] ?? "").replace(/<[^>]+>/g, " ");

const apiStates = async (courseId: number) => {
  const res = await call("GET", `lesson-progresses/course/${courseId}`, undefined, learnerApi);
  expect(res.status).toBe(200);
  return res.json().payload as {
    completed_lessons: number;
    in_progress_lessons: number;
    lesson_states: Array<{ lesson_id: number; state: string }>;
    lesson_progress: Array<{ lesson_id: number; state: string }>;
  };
};

describe("one lesson state for every kind (issue 45 item 3)", () => {
  const ids = { course: 0, one: 0, two: 0, text: 0, quizLesson: 0, quiz: 0 };

  beforeAll(async () => {
    ids.course = (
      await call("POST", "courses", { title: "Tilstande", type: "series", published: true, allow_quizzes: true })
    ).json().payload.id;
    const lesson = async (title: string) =>
      (await call("POST", "lessons", { course_id: ids.course, title, kind: "text", body: "<p>x</p>" })).json().payload.id as number;
    ids.one = await lesson("Pakke et");
    ids.two = await lesson("Pakke to");
    ids.text = await lesson("Læsning");
    await editorUpload(ids.course, ids.one, "singlesco_scorm12.zip");
    await editorUpload(ids.course, ids.two, "singlesco_scorm12.zip");
    const quiz = await call("POST", "quizzes", {
      title: "Tilstandsquiz",
      pass_min: 1,
      questions: [{ type: "true_false", prompt: "Er himlen blå?", correct_answer: true }],
    });
    expect(quiz.status, quiz.body).toBe(201);
    ids.quiz = quiz.json().payload.id;
    const attached = await call("POST", `quizzes/${ids.quiz}/attach`, { course_id: ids.course, title: "Quizzen" });
    expect(attached.status, attached.body).toBe(201);
    ids.quizLesson = attached.json().payload.id;
  });

  it("shows nothing begun as not started, with the Start button", async () => {
    const { states, start } = await coursePage(ids.course);
    expect(states).toEqual({ "Pakke et": "not_started", "Pakke to": "not_started", Læsning: "not_started", Quizzen: "not_started" });
    expect(start).toContain("Start");
    const progress = await apiStates(ids.course);
    expect(progress.lesson_states.map((s) => s.state)).toEqual(["not_started", "not_started", "not_started", "not_started"]);
  });

  it("shows a SCORM lesson committed to as in progress, and one its package completed as completed, on the page and in /api", async () => {
    const sco = "item_1";
    const commit = async (lessonId: number, status: string) => {
      const res = await call(
        "POST",
        "scorm-attempts",
        { lesson_id: lessonId, sco_id: sco, cmi: { "cmi.core.lesson_status": status, "cmi.core.lesson_location": "p2" } },
        learnerApi,
      );
      expect(res.status, res.body).toBe(200);
    };
    // The fixture's one SCO, as the manifest names it.
    const [{ items }] = execTenantRows<{ items: string }>("select items from scorm_packages where lesson_id = ?", ids.one);
    expect(JSON.parse(items)[0].identifier).toBe(sco);

    await commit(ids.one, "incomplete");
    let seen = await coursePage(ids.course);
    expect(seen.states["Pakke et"]).toBe("in_progress");
    expect(seen.states["Pakke to"]).toBe("not_started");
    // Begun: the button says to go on, not to start, and the episode says it is under way (no share of a package is "seen").
    expect(seen.start).toContain("Fortsæt");
    expect(episode(seen.body, "Pakke et")).toContain("I gang");
    expect(episode(seen.body, "Pakke et")).not.toMatch(/% set/);
    let progress = await apiStates(ids.course);
    expect(progress.in_progress_lessons).toBe(1);
    expect(progress.lesson_states).toEqual([
      { lesson_id: ids.one, state: "in_progress" },
      { lesson_id: ids.two, state: "not_started" },
      { lesson_id: ids.text, state: "not_started" },
      { lesson_id: ids.quizLesson, state: "not_started" },
    ]);

    await commit(ids.two, "completed");
    seen = await coursePage(ids.course);
    expect(seen.states["Pakke to"]).toBe("completed");
    expect(seen.start).toContain("Fortsæt");
    progress = await apiStates(ids.course);
    expect(progress.completed_lessons).toBe(1);
    expect(progress.lesson_states.find((s) => s.lesson_id === ids.two)?.state).toBe("completed");
    expect(progress.lesson_progress.find((p) => p.lesson_id === ids.two)?.state).toBe("completed");
    // The learner's own list says the same of each row.
    const list = (await call("GET", "lesson-progresses", undefined, learnerApi)).json().payload.data as Array<{
      lesson_id: number;
      state: string;
    }>;
    expect(list.find((p) => p.lesson_id === ids.one)?.state).toBe("in_progress");
    expect(list.find((p) => p.lesson_id === ids.two)?.state).toBe("completed");
  });

  it("shows a quiz lesson begun as in progress, a text marked read as completed", async () => {
    const started = await call("POST", "quizzes/submissions", { quiz_id: ids.quiz, lesson_id: ids.quizLesson }, learnerApi);
    expect(started.status, started.body).toBe(201);
    await call("POST", "lesson-progresses", { lesson_id: ids.text, completed: true }, learnerApi);
    const { states } = await coursePage(ids.course);
    expect(states).toEqual({ "Pakke et": "in_progress", "Pakke to": "completed", Læsning: "completed", Quizzen: "in_progress" });
    expect((await apiStates(ids.course)).lesson_states.map((s) => s.state)).toEqual([
      "in_progress",
      "completed",
      "completed",
      "in_progress",
    ]);
  });

  it("counts only work of the current cycle once a renewal of the course is open", async () => {
    // A renewal as app/models/completion-cycle.server.ts opens it: marks cleared, attempts ended, from now on.
    execTenant(
      server,
      2,
      "insert into course_completions (user_id, course_id, completed_at, renewal_started_at) values ((select id from users where email = 'state@nordlys.test'), ?, unixepoch() - 10, unixepoch() + 5)",
      ids.course,
    );
    execTenant(server, 2, "update lesson_progress set completed_at = null where course_id = ?", ids.course);
    const { states } = await coursePage(ids.course);
    expect(Object.values(states)).toEqual(["not_started", "not_started", "not_started", "not_started"]);
    expect((await apiStates(ids.course)).in_progress_lessons).toBe(0);
  });
});

function execTenantRows<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(server.dataDir, "org-2", "db.sqlite"), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

describe("SCORM packages through /api (issue 45 item 4)", () => {
  let course = 0;
  const lessonsOf = async () =>
    ((await call("GET", `lessons?course_id=${course}`)).json().payload.data as Array<{ id: number; title: string; kind: string }>).map(
      (l) => l.title,
    );

  beforeAll(async () => {
    course = (await call("POST", "courses", { title: "Pakker via API", type: "series", published: true })).json().payload.id;
  });

  it("refuses an AICC zip (any zip that is no SCORM package) with the editor's translated reason: no lesson, nothing unpacked", async () => {
    // The reporter's case: an AICC course is a zip of .au/.crs/.des/.cst files, without imsmanifest.xml.
    const aicc = makeZip([
      { name: "course.au", data: '"System_ID","File_Name"\n"A1","index.html"\n' },
      { name: "course.crs", data: "[Course]\nCourse_Title=AICC\n" },
      { name: "course.des", data: '"System_ID","Title"\n"A1","One"\n' },
      { name: "course.cst", data: '"Block","Member"\n"root","A1"\n' },
      { name: "index.html", data: "<html></html>" },
    ]);
    const fileId = await uploadFile(aicc, "aicc.zip");
    const before = scormFolders();
    const res = await call("POST", "lessons", { course_id: course, title: "AICC", kind: "scorm", file_id: fileId });
    expect(res.status, res.body).toBe(422);
    // The lesson editor's own reason, in the caller's language (Danish): AICC named as such, or no manifest.
    const { code, message, fields } = res.json().payload;
    expect(["aicc", "no_manifest"]).toContain(code);
    expect(message).toBe(danish.scorm.errors[code]);
    expect(fields).toEqual({ file_id: [message] });
    expect(await lessonsOf()).toEqual([]);
    expect(scormFolders()).toEqual(before);

    // A manifest in a folder, and a file that is no zip at all, likewise.
    const nested = await call("POST", "lessons", {
      course_id: course,
      title: "Mappe",
      kind: "scorm",
      file_id: await uploadFile(zip("badscorm.zip"), "badscorm.zip"),
    });
    expect(nested.status).toBe(422);
    expect(nested.json().payload.code).toBe("manifest_not_at_root");
    expect(await lessonsOf()).toEqual([]);
  });

  it("refuses a package that only unpacking finds wrong (a zip bomb) after the lesson was made: the lesson is gone again", async () => {
    // A well-formed package whose one extra file inflates 3 MiB from a few KiB: past 1 MiB, over 200:1.
    const bomb = makeZip([
      { name: "imsmanifest.xml", data: manifest12() },
      { name: "index.html", data: "<html></html>" },
      { name: "two/index.html", data: "<html></html>" },
      { name: "media/filler.bin", data: Buffer.alloc(3 * 1024 * 1024), deflate: true },
    ]);
    const before = scormFolders();
    const res = await call("POST", "lessons", {
      course_id: course,
      title: "Bombe",
      kind: "scorm",
      file_id: await uploadFile(bomb, "bomb.zip"),
    });
    expect(res.status, res.body).toBe(422);
    expect(res.json().payload).toMatchObject({ code: "ratio", message: danish.scorm.errors.ratio });
    expect(await lessonsOf()).toEqual([]);
    expect(scormFolders()).toEqual(before);
  });

  it("refuses a SCORM lesson without a package", async () => {
    const res = await call("POST", "lessons", { course_id: course, title: "Tom", kind: "scorm" });
    expect(res.status).toBe(422);
    expect(res.json().payload.code).toBe("package_required");
    expect(res.json().payload.fields.file_id[0]).toContain("file_id");
    expect(await lessonsOf()).toEqual([]);
  });

  it("installs a real package: 201 once installed, the package readable, and the learner's player launches it", async () => {
    const before = scormFolders();
    const fileId = await uploadFile(zip("singlesco_scorm12.zip"), "golf12.zip");
    const res = await call("POST", "lessons", { course_id: course, title: "Golf", kind: "scorm", file_id: fileId });
    expect(res.status, res.body).toBe(201);
    const lesson = res.json().payload as { id: number; kind: string };
    expect(lesson.kind).toBe("scorm");
    expect(scormFolders()).toHaveLength(before.length + 1);
    const pkg = await call("GET", `lessons/${lesson.id}/scorm-package`);
    expect(pkg.status).toBe(200);
    expect(pkg.json().payload).toMatchObject({ lesson_id: lesson.id, version: "1.2" });
    expect(pkg.json().payload.items[0]).toMatchObject({ identifier: "item_1", type: "sco" });
    const player = await page(`/courses/${course}/lessons/${lesson.id}`);
    expect(player.body).toMatch(/http:\/\/2\.scorm\.localhost:\d+\/p\/[^"\\]+\/__lectern\/launch\/0/);
    // Learners may not read the package's details, nor install one.
    expect((await call("GET", `lessons/${lesson.id}/scorm-package`, undefined, learnerApi)).status).toBe(403);
    expect((await call("POST", "lessons", { course_id: course, title: "X", kind: "scorm", file_id: fileId }, learnerApi)).status).toBe(403);

    // Replaced with PUT and another zip; a refused one changes nothing.
    const v2004 = await uploadFile(zip("RuntimeBasicCalls_SCORM20043rdEdition.zip"), "golf2004.zip");
    const replaced = await call("PUT", `lessons/${lesson.id}`, { file_id: v2004 });
    expect(replaced.status, replaced.body).toBe(200);
    expect((await call("GET", `lessons/${lesson.id}/scorm-package`)).json().payload.version).toBe("2004-3");
    const bad = await uploadFile(zip("badscorm.zip"), "bad.zip");
    const refused = await call("PUT", `lessons/${lesson.id}`, { file_id: bad, title: "Omdøbt" });
    expect(refused.status).toBe(422);
    expect(refused.json().payload.code).toBe("manifest_not_at_root");
    const after = (await call("GET", `lessons/${lesson.id}`)).json().payload;
    expect(after).toMatchObject({ title: "Golf", file_id: v2004 });
    expect((await call("GET", `lessons/${lesson.id}/scorm-package`)).json().payload.version).toBe("2004-3");
  });

  it("refuses turning a lesson into a SCORM lesson without a package, and installs one given with it", async () => {
    const text = (await call("POST", "lessons", { course_id: course, title: "Tekst", kind: "text" })).json().payload.id as number;
    const refused = await call("PUT", `lessons/${text}`, { kind: "scorm" });
    expect(refused.status).toBe(422);
    expect(refused.json().payload.code).toBe("package_required");
    expect((await call("GET", `lessons/${text}`)).json().payload.kind).toBe("text");
    expect((await call("GET", `lessons/${text}/scorm-package`)).status).toBe(404);
    const fileId = await uploadFile(zip("singlesco_scorm12.zip"), "golf12-again.zip");
    const made = await call("PUT", `lessons/${text}`, { kind: "scorm", file_id: fileId });
    expect(made.status, made.body).toBe(200);
    expect(made.json().payload.kind).toBe("scorm");
    expect((await call("GET", `lessons/${text}/scorm-package`)).status).toBe(200);
  });
});
