import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";
import { makeZip, scormZip } from "../helpers/zip";

/**
 * SCORM tracking that never drops a commit (issue 45, items 1, 2, 5, 6) over HTTP against the real server:
 * the launcher's own commit address on the content origin (what it accepts and refuses, in which order),
 * what the LMS sets at exit when the content said nothing, the contents list the player is given, an AICC
 * zip refused by name, and a missing file answered with a page the player may frame. Nordlys speaks Danish.
 */
let server: InProcessServer;
const ORG = "nordlys.localhost";
const CONTENT = "2.scorm.localhost";
let adminToken: string;
let adminCookie: string;
let learnerCookie: string;
let learnerToken: string;
let course = 0;

beforeAll(async () => {
  server = await startInProcess();
  adminToken = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  adminCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  learnerCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
  learnerToken = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  course = (
    await api(server, ORG, "POST", "courses", { token: adminToken, body: { title: "Tracking", type: "series", published: true } })
  ).json().payload.id;
});
afterAll(async () => {
  await server?.stop();
});

async function newLesson(title: string) {
  return (await api(server, ORG, "POST", "lessons", { token: adminToken, body: { course_id: course, title, kind: "text" } })).json().payload
    .id as number;
}

function upload(lesson: number, data: Buffer) {
  const { body, contentType } = multipart({}, { package: { name: "package.zip", type: "application/zip", data } });
  return request(server.port, ORG, `/dashboard/organizations/2/courses/${course}/lessons/${lesson}/scorm`, {
    method: "POST",
    headers: { Cookie: adminCookie, "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" },
    body,
  });
}

const content = (p: string, init: Parameters<typeof request>[3] = {}) => request(server.port, `${CONTENT}:${server.port}`, p, init);

/** The player page's launcher addresses (one per item), read as the browser gets them. */
async function launchers(lesson: number) {
  const page = await request(server.port, ORG, `/courses/${course}/lessons/${lesson}`, { headers: { Cookie: learnerCookie } });
  expect(page.status).toBe(200);
  return {
    page,
    urls: [
      ...new Set([...page.body.matchAll(/http:\/\/2\.scorm\.localhost:\d+(\/p\/[^"\\]+\/__lectern\/launch\/\d+)/g)].map((m) => m[1]!)),
    ],
  };
}

/** Opens a launcher as the frame does: its commit address and launch id come with it. */
async function launch(path: string) {
  const page = await content(path);
  expect(page.status).toBe(200);
  const config = JSON.parse(/<script type="application\/json" id="lectern-scorm">(.*?)<\/script>/.exec(page.body)![1]!) as {
    commit: string;
    launchId: string;
    cmi: Record<string, string>;
  };
  let seq = 0;
  const commit = (cmi: Record<string, string>, { terminate = false, number = ++seq, headers = {} as Record<string, string> } = {}) =>
    content(config.commit, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", ...headers },
      body: JSON.stringify({ launch: config.launchId, seq: number, terminate, cmi }),
    });
  return { config, commit };
}

async function attempts(lesson: number) {
  return (await api(server, ORG, "GET", `scorm-attempts?lesson_id=${lesson}`, { token: learnerToken })).json().payload as Array<{
    sco_id: string;
    completion_status: string;
    success_status: string;
    completed: boolean;
  }>;
}

describe("a 1.2 package of chapters, a hidden item and an asset", () => {
  let lesson = 0;
  beforeAll(async () => {
    lesson = await newLesson("Chapters 1.2");
    const zip = scormZip("1.2", "Chapters", [
      {
        title: "Kapitel et",
        items: [
          { id: "s1", title: "Første" },
          { id: "h1", title: "Skjult", hidden: true },
        ],
      },
      {
        title: "Kapitel to",
        items: [
          { id: "a1", title: "Uddelingsark", asset: true },
          { id: "s2", title: "Anden" },
        ],
      },
    ]);
    expect((await upload(lesson, zip)).status).toBe(302);
  });

  it("the player is given the package's contents list: chapter headings, no hidden item, no asset (item 5)", async () => {
    const { page } = await launchers(lesson);
    // The list is rendered on the server (its buttons wait for JavaScript).
    const list = /<ol data-testid="scorm-contents">(.*?)<\/ol>/s.exec(page.body)![1]!;
    const entries = [...list.matchAll(/<h3[^>]*>([^<]*)<\/h3>|<span>([^<]*)<\/span><span class="visually-hidden">/g)].map(
      (m) => m[1] ?? m[2],
    );
    expect(entries).toEqual(["Kapitel et", "Første", "Kapitel to", "Anden"]);
  });

  it("a SCO that calls only LMSInitialize and LMSFinish is completed at LMSFinish; with a mastery score, passed or failed (item 2)", async () => {
    const { urls } = await launchers(lesson);
    // The launcher does not hand the content a status it never set (scorm-again would take it for the content's).
    const first = await launch(urls[0]!);
    expect(first.config.cmi["cmi.core.lesson_status"]).toBeUndefined();
    // What scorm-again sends at LMSFinish when its own default is not on: the status still "not attempted".
    const finished = await first.commit({ "cmi.core.lesson_status": "not attempted", "cmi.core.exit": "" }, { terminate: true });
    expect(finished.status, finished.body).toBe(200);
    expect(finished.json().payload).toMatchObject({
      sco_id: "s1",
      completion_status: "completed",
      completed: true,
      lesson_completed: false,
    });
    // The second SCO completes the lesson: the hidden item and the asset are not needed.
    const second = await launch(urls[3]!);
    const last = await second.commit({ "cmi.core.lesson_status": "not attempted" }, { terminate: true });
    expect(last.json().payload).toMatchObject({ sco_id: "s2", completed: true, lesson_completed: true });
    const progress = (await api(server, ORG, "GET", "lesson-progresses", { token: learnerToken })).json().payload.data;
    expect(progress.find((p: { lesson_id: number }) => p.lesson_id === lesson)).toMatchObject({
      completed: true,
      scorm: { status: "completed" },
    });
  });
});

describe("SCORM 2004: the sequencing defaults at exit (item 2)", () => {
  it("an attempt that ends with nothing reported is completed and passed, unless the content decides or the learner suspended", async () => {
    const lesson = await newLesson("Defaults 2004");
    const zip = scormZip("2004", "Defaults", [
      { id: "plain", title: "Plain" },
      { id: "own", title: "Decides itself", setByContent: true },
      { id: "paused", title: "Suspended" },
    ]);
    expect((await upload(lesson, zip)).status).toBe(302);
    const { urls } = await launchers(lesson);
    const unknown = { "cmi.completion_status": "unknown", "cmi.success_status": "unknown" };
    expect((await (await launch(urls[0]!)).commit({ ...unknown, "cmi.exit": "" }, { terminate: true })).json().payload).toMatchObject({
      completion_status: "completed",
      success_status: "passed",
      completed: true,
    });
    expect((await (await launch(urls[1]!)).commit({ ...unknown, "cmi.exit": "" }, { terminate: true })).json().payload).toMatchObject({
      completion_status: "unknown",
      completed: false,
    });
    expect(
      (await (await launch(urls[2]!)).commit({ ...unknown, "cmi.exit": "suspend" }, { terminate: true })).json().payload,
    ).toMatchObject({ completion_status: "unknown", completed: false });
    // The content reads its own element back as it left it.
    expect((await launch(urls[0]!)).config.cmi["cmi.completion_status"]).toBe("unknown");
  });
});

describe("the launcher's commit address (item 1)", () => {
  let lesson = 0;
  let urls: string[] = [];
  beforeAll(async () => {
    lesson = await newLesson("Commits");
    expect(
      (
        await upload(
          lesson,
          scormZip("1.2", "Commits", [
            { id: "one", title: "One" },
            { id: "two", title: "Two" },
          ]),
        )
      ).status,
    ).toBe(302);
    urls = (await launchers(lesson)).urls;
  });

  it("stores a commit for the SCO its address names, whatever the body says", async () => {
    const { commit } = await launch(urls[1]!);
    const res = await commit({ "cmi.core.lesson_location": "p2", "cmi.core.lesson_status": "incomplete" });
    expect(res.status, res.body).toBe(200);
    expect(res.json().payload).toMatchObject({ sco_id: "two", completion_status: "incomplete" });
    expect((await attempts(lesson)).map((a) => a.sco_id)).toEqual(["two"]);
  });

  it("keeps the later of two commits that arrive out of order, and a later launch over an earlier one", async () => {
    const { commit } = await launch(urls[0]!);
    expect((await commit({ "cmi.core.lesson_location": "third" }, { number: 3 })).status).toBe(200);
    const late = await commit({ "cmi.core.lesson_location": "second" }, { number: 2 });
    expect(late.status).toBe(409);
    expect(late.json().payload.code).toBe("superseded");
    const newer = await launch(urls[0]!);
    expect(newer.config.cmi["cmi.core.lesson_location"]).toBe("third");
    expect((await newer.commit({ "cmi.core.lesson_location": "newer" }, { number: 1 })).status).toBe(200);
    expect((await commit({ "cmi.core.lesson_location": "old launch" }, { number: 4 })).status).toBe(409);
    expect((await launch(urls[0]!)).config.cmi["cmi.core.lesson_location"]).toBe("newer");
  });

  it("refuses other sites, other formats, bad data, forged addresses and oversized bodies, storing nothing", async () => {
    const { config, commit } = await launch(urls[0]!);
    const cross = await commit({ "cmi.core.lesson_location": "x" }, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(cross.status).toBe(403);
    expect(cross.json().payload.message).toBe("Forespørgslen kom fra et andet websted og blev afvist.");
    const plain = await content(config.commit, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
    expect(plain.status).toBe(415);
    expect((await commit({ "cmi.core.lesson_status": "done" })).status).toBe(422);
    const noLaunch = await content(config.commit, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seq: 1, cmi: {} }),
    });
    expect(noLaunch.status).toBe(422);
    const forged = config.commit.replace(/\.(\d)\./, (_m, d) => `.${Number(d) + 1}.`);
    const post = (p: string) =>
      content(p, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ launch: config.launchId, seq: 9, cmi: {} }),
      });
    expect((await post(forged)).status).toBe(404);
    expect((await post(config.commit.replace(/\/0$/, "/9"))).status).toBe(404);
    const huge = await commit({ "cmi.suspend_data": "x".repeat(1_100_000) });
    expect(huge.status).toBe(413);
    expect((await content(config.commit, { method: "OPTIONS" })).status).toBe(405);
    expect((await content(config.commit)).status).toBe(404); // only POST there
    expect((await launch(urls[0]!)).config.cmi["cmi.core.lesson_location"]).toBe("newer");
  });

  it("the launcher may post to its own origin and nowhere else", async () => {
    const page = await content(urls[0]!);
    expect(page.headers["content-security-policy"]).toContain("connect-src 'self'");
  });
});

describe("small ones (item 6)", () => {
  it("an AICC course is refused naming AICC and what is supported", async () => {
    const lesson = await newLesson("AICC");
    const aicc = makeZip([
      { name: "course.crs", data: "[Course]\nCourse_Creator=Someone\n" },
      { name: "course.au", data: '"System_ID","Type","File_Name"\n"A1","lesson","index.html"\n' },
      { name: "course.des", data: '"System_ID","Title"\n"A1","Lesson"\n' },
      { name: "course.cst", data: '"Block","Member"\n"root","A1"\n' },
      { name: "index.html", data: "<p>AICC</p>" },
    ]);
    const res = await upload(lesson, aicc);
    expect(res.status).toBe(422);
    expect(res.body).toContain("Dette er et AICC-kursus, ikke en SCORM-pakke.");
    expect(res.body).toContain("SCORM 1.2- og SCORM 2004-pakker");
  });

  it("a file missing from a package is a translated page the player may frame, not one it is refused", async () => {
    const lesson = await newLesson("Missing");
    expect((await upload(lesson, scormZip("1.2", "Missing", [{ id: "only", title: "Only" }]))).status).toBe(302);
    const { urls } = await launchers(lesson);
    const missing = await content(urls[0]!.replace(/__lectern\/launch\/0$/, "missing.html"));
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(missing.headers["content-security-policy"]).toContain(`frame-ancestors 'self' http://${ORG}:${server.port}`);
    expect(missing.body).toContain("<h1>Ikke fundet</h1>");
    // A host that is no organization's still frames nothing.
    const nobody = await request(server.port, `999.scorm.localhost:${server.port}`, "/p/x/y.html");
    expect(nobody.status).toBe(404);
    expect(nobody.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
});
