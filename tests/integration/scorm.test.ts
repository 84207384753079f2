import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * SCORM over HTTP against the real server (issue 16): uploads through the dashboard form, the content
 * origin's addresses, headers and refusals, and commits of runtime data through /api.
 */
let server: InProcessServer;
const ORG = "nordlys.localhost";
const CONTENT = "2.scorm.localhost";
const FIXTURES = path.resolve(__dirname, "../fixtures/scorm");
let adminToken: string;
let adminCookie: string;
let learnerCookie: string;
let learnerToken: string;
let otherToken: string;
const ids = { course: 0, lesson: 0, learner: 0 };
let launch = "";

beforeAll(async () => {
  server = await startInProcess();
  adminToken = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  adminCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  learnerCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
  learnerToken = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  execTenant(server, 2, "insert into users (email, first_name, last_name, role) values ('other@nordlys.test', 'Ole', 'Olsen', 'learner')");
  otherToken = insertSession(server, { organizationId: 2 }, { email: "other@nordlys.test", kind: "api" });
  ids.course = (
    await api(server, ORG, "POST", "courses", { token: adminToken, body: { title: "Golf", type: "series", published: true } })
  ).json().payload.id;
  ids.lesson = (
    await api(server, ORG, "POST", "lessons", { token: adminToken, body: { course_id: ids.course, title: "Golf 1.2", kind: "text" } })
  ).json().payload.id;
});
afterAll(async () => {
  await server?.stop();
});

const scormDir = () => path.join(server.dataDir, "org-2", "scorm");
// The demo seeds a SCORM lesson of its own: the tests look at what changes beside it.
const folders = () => (fs.existsSync(scormDir()) ? fs.readdirSync(scormDir()).sort() : []);
let demoFolders: string[] = [];

function uploadPackage(data: Buffer, name = "package.zip") {
  const { body, contentType } = multipart({}, { package: { name, type: "application/zip", data } });
  return request(server.port, ORG, `/dashboard/organizations/2/courses/${ids.course}/lessons/${ids.lesson}/scorm`, {
    method: "POST",
    headers: { Cookie: adminCookie, "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" },
    body,
  });
}

const content = (p: string, headers: Record<string, string> = {}) => request(server.port, `${CONTENT}:${server.port}`, p, { headers });

describe("upload", () => {
  it("refuses a package with its manifest in a folder, with a translated error, and writes nothing", async () => {
    demoFolders = folders();
    const res = await uploadPackage(fs.readFileSync(path.join(FIXTURES, "badscorm.zip")));
    expect(res.status).toBe(422);
    expect(res.body).toContain("imsmanifest.xml skal ligge i roden");
    expect(folders()).toEqual(demoFolders);
  });

  it("installs the real SCORM 1.2 package and makes the lesson a SCORM lesson", async () => {
    const res = await uploadPackage(fs.readFileSync(path.join(FIXTURES, "singlesco_scorm12.zip")));
    expect(res.status).toBe(302);
    expect(res.headers.location).toContain("?installed=1");
    expect(folders()).toHaveLength(demoFolders.length + 1);
    const lesson = (await api(server, ORG, "GET", `lessons/${ids.lesson}`, { token: adminToken })).json().payload;
    expect(lesson.kind).toBe("scorm");
  });
});

describe("the player and the content origin", () => {
  it("hands the learner a signed launcher address on the content origin, and frames it under the app's CSP", async () => {
    const page = await request(server.port, ORG, `/courses/${ids.course}/lessons/${ids.lesson}`, { headers: { Cookie: learnerCookie } });
    expect(page.status).toBe(200);
    const match = page.body.match(/http:\/\/2\.scorm\.localhost:\d+(\/p\/[^"\\]+\/__lectern\/launch\/0)/);
    expect(match).not.toBeNull();
    launch = match![1];
    expect(page.headers["content-security-policy"]).toContain("frame-src 'self' https: http://*.scorm.localhost:*");
  });

  it("serves the launcher and the files with their types, nosniff and a CSP, and never a cookie", async () => {
    const launcher = await content(launch);
    expect(launcher.status).toBe(200);
    expect(launcher.headers["content-type"]).toContain("text/html");
    expect(launcher.headers["x-content-type-options"]).toBe("nosniff");
    expect(launcher.headers["content-security-policy"]).toContain(`frame-ancestors http://${ORG}:${server.port}`);
    expect(launcher.headers["set-cookie"]).toBeUndefined();
    expect(launcher.body).toContain('"cmi.core.entry":"ab-initio"');
    expect(launcher.body).toContain('"playerOrigin":"http://nordlys.localhost:');

    const base = launch.replace(/__lectern\/launch\/0$/, "");
    const html = await content(`${base}shared/launchpage.html`);
    expect(html.status).toBe(200);
    expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.headers["x-content-type-options"]).toBe("nosniff");
    expect(html.headers["content-security-policy"]).toContain(`frame-ancestors 'self' http://${ORG}:${server.port}`);
    expect(html.headers["content-security-policy"]).toContain("connect-src 'self'");
    expect((await content(`${base}shared/style.css`)).headers["content-type"]).toBe("text/css; charset=utf-8");
    expect((await content(`${base}Etiquette/course.jpg`)).headers["content-type"]).toBe("image/jpeg");
    expect((await content("/_runtime/scorm12.min.js")).status).toBe(200);
  });

  it("answers 404 to a missing or forged token, a path out of the package, another organization's host, and the app's pages", async () => {
    const base = launch.replace(/__lectern\/launch\/0$/, "");
    const token = base.split("/")[2];
    const forged = token.replace(/\.(\d)\./, (_m, d) => `.${Number(d) + 1}.`);
    for (const p of [
      "/p/nothing/shared/launchpage.html",
      `/p/${forged}/shared/launchpage.html`,
      `/p/${token.slice(0, -2)}xx/shared/launchpage.html`,
      `${base}../../db.sqlite`,
      `${base}%2e%2e/%2e%2e/db.sqlite`,
      `${base}shared/nothing.html`,
      `${base}__lectern/launch/7`,
      "/courses",
      "/api/lesson-progresses",
      "/",
    ]) {
      const res = await content(p, { Cookie: learnerCookie });
      expect(res.status, p).toBe(404);
    }
    const wrongHost = await request(server.port, `1.scorm.localhost:${server.port}`, `${base}shared/launchpage.html`);
    expect(wrongHost.status).toBe(404);
    const post = await request(server.port, `${CONTENT}:${server.port}`, `${base}shared/launchpage.html`, { method: "POST", body: "x" });
    expect(post.status).toBe(405);
  });

  it("a learner who loses access gets no launcher, even with an address handed out before", async () => {
    await api(server, ORG, "PUT", `courses/${ids.course}`, { token: adminToken, body: { block_default_access: true } });
    try {
      expect((await content(launch)).status).toBe(404);
      const page = await request(server.port, ORG, `/courses/${ids.course}/lessons/${ids.lesson}`, { headers: { Cookie: learnerCookie } });
      expect(page.body).not.toContain("__lectern/launch");
      const commit = await api(server, ORG, "POST", "scorm-attempts", {
        token: learnerToken,
        body: { lesson_id: ids.lesson, sco_id: "item_1", cmi: {} },
      });
      expect(commit.status).toBe(403);
    } finally {
      await api(server, ORG, "PUT", `courses/${ids.course}`, { token: adminToken, body: { block_default_access: false } });
    }
    expect((await content(launch)).status).toBe(200);
  });
});

describe("runtime data", () => {
  const commit = (token: string, body: Record<string, unknown>) =>
    api(server, ORG, "POST", "scorm-attempts", { token, body: { lesson_id: ids.lesson, sco_id: "item_1", ...body } });

  it("validates element names and sizes against the SCORM 1.2 data model", async () => {
    const tooLong = await commit(learnerToken, { cmi: { "cmi.suspend_data": "x".repeat(4097) } });
    expect(tooLong.status).toBe(422);
    expect(tooLong.json().payload.fields["cmi.cmi.suspend_data"]).toEqual(["Værdien er længere, end datamodellen tillader."]);
    const unknown = await commit(learnerToken, { cmi: { "cmi.location": "2004 name in a 1.2 package" } });
    expect(unknown.status).toBe(422);
    const badStatus = await commit(learnerToken, { cmi: { "cmi.core.lesson_status": "done" } });
    expect(badStatus.status).toBe(422);
    const badSco = await commit(learnerToken, { sco_id: "nope", cmi: {} });
    expect(badSco.status).toBe(422);
    expect((await api(server, ORG, "GET", `scorm-attempts?lesson_id=${ids.lesson}`, { token: learnerToken })).json().payload).toEqual([]);
  });

  it("stores the learner's data per SCO, resumes it on the next launch, and refuses a commit for someone else", async () => {
    const ok = await commit(learnerToken, {
      cmi: {
        "cmi.suspend_data": "s".repeat(4096),
        "cmi.core.lesson_location": "p3",
        "cmi.core.lesson_status": "incomplete",
        "cmi.core.exit": "suspend",
        "cmi.core.student_id": "999",
        "cmi.objectives": {},
      },
    });
    expect(ok.status, ok.body).toBe(200);
    expect(ok.json().payload).toMatchObject({
      sco_id: "item_1",
      completion_status: "incomplete",
      completed: false,
      lesson_completed: false,
    });
    const launcher = await content(launch);
    expect(launcher.body).toContain('"cmi.core.entry":"resume"');
    expect(launcher.body).toContain('"cmi.core.lesson_location":"p3"');
    // The LMS's own elements come from the LMS, not from a commit.
    expect(launcher.body).not.toContain('"cmi.core.student_id":"999"');

    const me = (await api(server, ORG, "GET", "auth/user", { token: learnerToken })).json().payload;
    const someoneElse = await commit(otherToken, { user_id: me.id ?? me.user?.id, cmi: { "cmi.core.lesson_status": "passed" } });
    expect(someoneElse.status).toBe(403);
    // The other learner's own commit touches only the other learner's attempt.
    expect((await commit(otherToken, { cmi: { "cmi.core.lesson_status": "failed" } })).status).toBe(200);
    const mine = (await api(server, ORG, "GET", `scorm-attempts?lesson_id=${ids.lesson}`, { token: learnerToken })).json().payload;
    expect(mine).toHaveLength(1);
    expect(mine[0].completion_status).toBe("incomplete");
  });

  it("maps 1.2 statuses: failed is attempted, passed completes the lesson once, with score and time", async () => {
    const failed = await commit(otherToken, { cmi: { "cmi.core.lesson_status": "failed", "cmi.core.score.raw": "30" } });
    expect(failed.json().payload).toMatchObject({
      completion_status: "failed",
      success_status: "failed",
      completed: false,
      lesson_completed: false,
    });
    const passed = await commit(learnerToken, {
      terminate: true,
      cmi: {
        "cmi.core.lesson_status": "passed",
        "cmi.core.score.raw": "85",
        "cmi.core.score.max": "100",
        "cmi.core.session_time": "00:10:30",
      },
    });
    expect(passed.json().payload).toMatchObject({
      completion_status: "passed",
      success_status: "passed",
      completed: true,
      lesson_completed: true,
      course_completed: true,
      total_seconds: 630,
      score: { raw: 85, scaled: 0.85 },
    });
    const progress = (await api(server, ORG, "GET", "lesson-progresses", { token: learnerToken })).json().payload.data;
    const row = progress.find((p: { lesson_id: number }) => p.lesson_id === ids.lesson);
    expect(row).toMatchObject({ completed: true, scorm: { status: "completed", score: 85, total_seconds: 630 } });
    // Completed stays completed, whatever the content says later.
    const later = await commit(learnerToken, { cmi: { "cmi.core.lesson_status": "incomplete" } });
    expect(later.json().payload.completed).toBe(true);
  });
});
