import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, tenantDb } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";
import { makeZip } from "../helpers/zip";
import { demoPackageZip } from "../../scripts/demo/packages";

/**
 * xAPI and cmi5 packages as lessons over HTTP against the real server (issue 48): the lesson editor's upload of
 * each kind and its refusals, the player's contents, a launch with and without its address's parameters, the
 * one-use fetch, an AU's statements through /xapi completing the lesson, and a launch's credential kept to its
 * own learner. The packages are the demo's (scripts/demo/packages/).
 */
let server: InProcessServer;
const ORG = "nordlys.localhost";
let adminCookie: string;
let adminToken: string;
let learnerCookie: string;
let otherCookie: string;
const ids = { course: 0, cmi5: 0, xapi: 0, other: 0 };

beforeAll(async () => {
  server = await startInProcess();
  adminToken = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  adminCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
  learnerCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
  execTenant(server, 2, "insert into users (email, first_name, last_name, role) values ('other@nordlys.test', 'Ole', 'Olsen', 'learner')");
  otherCookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "other@nordlys.test", kind: "web" }));
  ids.course = (
    await api(server, ORG, "POST", "courses", { token: adminToken, body: { title: "Sikkerhed", type: "series", published: true } })
  ).json().payload.id;
  for (const key of ["cmi5", "xapi", "other"] as const)
    ids[key] = (
      await api(server, ORG, "POST", "lessons", {
        token: adminToken,
        body: { course_id: ids.course, title: `Lektion ${key}`, kind: "text" },
      })
    ).json().payload.id;
});
afterAll(async () => {
  await server?.stop();
});

const editor = (lesson: number) => `/dashboard/organizations/2/courses/${ids.course}/lessons/${lesson}/scorm`;
const lessonPage = (lesson: number) => `/courses/${ids.course}/lessons/${lesson}`;

function upload(lesson: number, data: Buffer, name = "package.zip", type = "application/zip") {
  const { body, contentType } = multipart({}, { package: { name, type, data } });
  return request(server.port, ORG, editor(lesson), {
    method: "POST",
    headers: { Cookie: adminCookie, "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" },
    body,
  });
}

function post(path: string, cookie: string, fields: Record<string, string>) {
  return request(server.port, ORG, path, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded", "Sec-Fetch-Site": "same-origin" },
    body: new URLSearchParams(fields).toString(),
  });
}

function row(sql: string, ...params: unknown[]): any {
  const db = tenantDb(server, 2);
  try {
    return db.prepare(sql).get(...params);
  } finally {
    db.close();
  }
}
/** The address a launch answered: the page's link to it (opened at once with JavaScript; a link without). */
function opened(res: { status: number; body: string }): URL {
  expect(res.status).toBe(200);
  const href = res.body.match(/<a href="([^"]+)"[^>]*data-testid="package-open"/)?.[1];
  expect(href, "the launch's link").toBeTruthy();
  return new URL(href!.replaceAll("&amp;", "&"));
}
const lessonKind = (lesson: number) => row("select kind from lessons where id = ?", lesson)?.kind;

const bareCourse = (url: string) => `<?xml version="1.0"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.test/course"><title><langstring lang="en">Elsewhere</langstring></title>
    <description><langstring lang="en">AUs on another site</langstring></description></course>
  <au id="https://example.test/au/1"><title><langstring lang="en">Remote part</langstring></title>
    <description><langstring lang="en">Remote</langstring></description><url>${url}</url></au>
</courseStructure>`;

describe("upload in the lesson editor", () => {
  it("refuses broken packages with the reason, in the admin's language, and leaves the lesson as it was", async () => {
    const cases: Array<[Buffer, string, string]> = [
      [
        makeZip([{ name: "index.html", data: "<p>x</p>" }]),
        "package.zip",
        "hverken imsmanifest.xml (SCORM), tincan.xml (xAPI) eller cmi5.xml",
      ],
      [makeZip([{ name: "course/cmi5.xml", data: bareCourse("a.html") }]), "package.zip", "cmi5.xml skal ligge i roden af zip-filen"],
      [makeZip([{ name: "cmi5.xml", data: "<courseStructure" }]), "package.zip", "cmi5.xml kunne ikke læses"],
      [
        makeZip([{ name: "cmi5.xml", data: bareCourse("missing.html") }]),
        "package.zip",
        "Manifestet starter en fil, der ikke findes i zip-filen.",
      ],
      [makeZip([{ name: "tincan.xml", data: "<tincan><activities/></tincan>" }]), "package.zip", "tincan.xml"],
      [Buffer.from(bareCourse("au.html")), "cmi5.xml", "kun angive enheder med absolutte http(s)-adresser"],
      [Buffer.from("just text"), "notes.txt", "hverken et zip-arkiv eller en cmi5.xml-kursusstruktur"],
    ];
    for (const [data, name, message] of cases) {
      const res = await upload(ids.other, data, name);
      expect(res.status, message).toBe(422);
      expect(res.body, message).toContain(message);
    }
    expect(lessonKind(ids.other)).toBe("text");
    expect(row("select count(*) as n from content_packages where lesson_id = ?", ids.other).n).toBe(0);
  });

  it("installs a cmi5 zip: the lesson becomes a package lesson and the editor shows its blocks and AUs with their rules", async () => {
    const res = await upload(ids.cmi5, demoPackageZip("fire-safety"));
    expect(res.status).toBe(302);
    expect(res.headers.location).toContain("?installed=1");
    expect(lessonKind(ids.cmi5)).toBe("package");
    const page = await request(server.port, ORG, `${editor(ids.cmi5)}?installed=1`, { headers: { Cookie: adminCookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-testid="content-package-kind">cmi5<');
    expect(page.body).toContain("Before a fire");
    expect(page.body).toContain("Færdig når: gennemført og bestået");
    expect(page.body).toContain("beståelsesgrænse 75 %");
    expect(page.body.match(/data-testid="content-package-au"/g)).toHaveLength(3);
  });

  it("installs an xAPI zip, and a bare cmi5.xml whose AU lives on another site", async () => {
    expect((await upload(ids.xapi, demoPackageZip("phishing"))).status).toBe(302);
    expect(lessonKind(ids.xapi)).toBe("package");
    const page = await request(server.port, ORG, editor(ids.xapi), { headers: { Cookie: adminCookie } });
    expect(page.body).toContain("xAPI (Tin Can)");
    expect(page.body).toContain("Spotting phishing");

    expect((await upload(ids.other, Buffer.from(bareCourse("https://au.example.test/part1.html")), "cmi5.xml", "text/xml")).status).toBe(
      302,
    );
    const bare = await request(server.port, ORG, editor(ids.other), { headers: { Cookie: adminCookie } });
    expect(bare.body).toContain("Remote part");
    expect(bare.body).toContain("på et andet websted");
  });
});

describe("the player", () => {
  let launch: URL;

  it("lists the course's blocks and AUs with their states, and launches an AU on the content origin with cmi5's parameters", async () => {
    const page = await request(server.port, ORG, lessonPage(ids.cmi5), { headers: { Cookie: learnerCookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-testid="package-player"');
    expect(page.body.match(/data-testid="package-au"/g)).toHaveLength(3);
    expect(page.body).toContain("When the alarm sounds");
    expect(page.body.match(/data-state="not_attempted"/g)).toHaveLength(3);
    expect(page.body).not.toContain('data-testid="complete"');

    const res = await post(lessonPage(ids.cmi5), learnerCookie, {
      intent: "start",
      au: "https://lectern.example/demo/cmi5/fire-safety/fuel",
    });
    launch = opened(res);
    expect(launch.host).toBe(`2.scorm.localhost:${server.port}`);
    expect(launch.pathname).toMatch(/^\/c\/[^/]+\/fuel\.html$/);
    expect(launch.searchParams.get("endpoint")).toBe(`http://${ORG}/xapi/`);
    expect(launch.searchParams.get("fetch")).toMatch(new RegExp(`^http://${ORG}/xapi/fetch/`));
    expect(JSON.parse(launch.searchParams.get("actor")!).account.homePage).toBe(`http://${ORG}`);
    expect(launch.searchParams.get("registration")).toMatch(/^[0-9a-f-]{36}$/);
    expect(launch.searchParams.get("activityId")).toMatch(/\/au\/[0-9a-f]{16}$/);

    const file = await request(server.port, launch.host, `${launch.pathname}${launch.search}`);
    expect(file.status).toBe(200);
    expect(file.body).toContain("What feeds a fire");
    expect(file.headers["set-cookie"]).toBeUndefined();

    const after = await request(server.port, ORG, lessonPage(ids.cmi5), { headers: { Cookie: learnerCookie } });
    expect(after.body).toContain('data-state="in_progress"');
  });

  it("runs an AU's session through /xapi: fetch once, initialized, completed, terminated; the AU is then completed", async () => {
    const xapi = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
      request(server.port, ORG, path, { ...init, headers: { "X-Experience-API-Version": "1.0.3", ...init.headers } });
    const fetchPath = new URL(launch.searchParams.get("fetch")!).pathname;
    const fetched = await xapi(fetchPath, { method: "POST" });
    expect(fetched.status).toBe(200);
    const auth = `Basic ${fetched.json()["auth-token"]}`;
    expect((await xapi(fetchPath, { method: "POST" })).json()).toMatchObject({ "error-code": "1" });

    const actor = launch.searchParams.get("actor")!;
    const registration = launch.searchParams.get("registration")!;
    const activityId = launch.searchParams.get("activityId")!;
    const state = await xapi(
      `/xapi/activities/state?${new URLSearchParams({ stateId: "LMS.LaunchData", activityId, agent: actor, registration })}`,
      { headers: { Authorization: auth } },
    );
    expect(state.status).toBe(200);
    const launchData = state.json();
    expect(launchData).toMatchObject({
      launchMode: "Normal",
      moveOn: "Completed",
      returnURL: `http://${ORG}${lessonPage(ids.cmi5)}`,
    });

    const send = (verb: string, result?: object) => {
      const context = structuredClone(launchData.contextTemplate);
      context.registration = registration;
      context.contextActivities.category = [
        { id: "https://w3id.org/xapi/cmi5/context/categories/cmi5" },
        ...(result && "completion" in result ? [{ id: "https://w3id.org/xapi/cmi5/context/categories/moveon" }] : []),
      ];
      return xapi("/xapi/statements", {
        method: "POST",
        headers: { Authorization: auth, "Content-Type": "application/json" },
        body: JSON.stringify({
          id: crypto.randomUUID(),
          timestamp: new Date().toISOString(),
          actor: JSON.parse(actor),
          verb: { id: `http://adlnet.gov/expapi/verbs/${verb}` },
          object: { id: activityId },
          result,
          context,
        }),
      });
    };
    expect((await send("completed", { completion: true, duration: "PT1S" })).status).toBe(403); // before initialized
    expect((await send("initialized")).status).toBe(403); // before the learner's preferences are read (cmi5 §11)
    const preferences = await xapi(`/xapi/agents/profile?${new URLSearchParams({ profileId: "cmi5LearnerPreferences", agent: actor })}`, {
      headers: { Authorization: auth },
    });
    expect(preferences.status).toBe(404);
    expect((await send("initialized")).status).toBe(200);
    // Another learner's statement with this launch's credential is refused.
    const stranger = await xapi("/xapi/statements", {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify({
        actor: { mbox: "mailto:other@nordlys.test" },
        verb: { id: "http://adlnet.gov/expapi/verbs/completed" },
        object: { id: activityId },
      }),
    });
    expect(stranger.status).toBe(403);
    expect((await send("completed", { completion: true, duration: "PT5S" })).status).toBe(200);
    expect((await send("terminated", { duration: "PT6S" })).status).toBe(200);
    // The credential ended with the session.
    expect((await send("experienced")).status).toBe(401);

    const page = await request(server.port, ORG, lessonPage(ids.cmi5), { headers: { Cookie: learnerCookie } });
    expect(page.body).toMatch(/data-state="completed">Gennemført/);
    expect(page.body.match(/data-state="not_attempted"/g)).toHaveLength(2);
    expect(page.body).toContain('data-testid="package-retake"');
  });

  it("launches the xAPI package with its credential on the address; a passed statement about it completes the lesson", async () => {
    const res = await post(lessonPage(ids.xapi), learnerCookie, { intent: "start", au: "" });
    const url = opened(res);
    expect(url.pathname).toMatch(/\/index\.html$/);
    const auth = url.searchParams.get("auth")!;
    expect(auth).toMatch(/^Basic /);
    expect(url.searchParams.get("activity_id")).toBe("https://lectern.example/demo/xapi/phishing");
    const sent = await request(server.port, ORG, "/xapi/statements", {
      method: "POST",
      headers: { Authorization: auth, "X-Experience-API-Version": "1.0.3", "Content-Type": "application/json" },
      body: JSON.stringify({
        actor: JSON.parse(url.searchParams.get("actor")!),
        verb: { id: "http://adlnet.gov/expapi/verbs/passed" },
        object: { id: "https://lectern.example/demo/xapi/phishing" },
        result: { success: true, score: { scaled: 1 } },
        context: { registration: url.searchParams.get("registration") },
      }),
    });
    expect(sent.status).toBe(200);
    const page = await request(server.port, ORG, lessonPage(ids.xapi), { headers: { Cookie: learnerCookie } });
    expect(page.body).toContain('data-testid="lesson-completed"');
  });

  it("refuses marking a package lesson complete by hand, and a launch by someone who may not open the course", async () => {
    expect((await post(lessonPage(ids.cmi5), learnerCookie, { intent: "complete" })).status).toBe(400);
    const unknown = await post(lessonPage(ids.cmi5), learnerCookie, { intent: "start", au: "https://nowhere.test/au" });
    expect(unknown.status).toBe(303);
    expect(unknown.headers.location).toBe(`${lessonPage(ids.cmi5)}?launch_error=1`);
    await api(server, ORG, "PUT", `courses/${ids.course}`, { token: adminToken, body: { block_default_access: true } });
    try {
      const res = await post(lessonPage(ids.cmi5), otherCookie, { intent: "start", au: "" });
      expect(res.status).toBe(403);
    } finally {
      await api(server, ORG, "PUT", `courses/${ids.course}`, { token: adminToken, body: { block_default_access: false } });
    }
  });
});

describe("through /api", () => {
  let learnerToken: string;
  let lesson: number;
  beforeAll(async () => {
    learnerToken = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
    lesson = (
      await api(server, ORG, "POST", "lessons", { token: adminToken, body: { course_id: ids.course, title: "Via /api", kind: "text" } })
    ).json().payload.id;
  });

  it("installs a course structure, refuses a broken one with the editor's reason, and reads the package back", async () => {
    const broken = await api(server, ORG, "PUT", `lessons/${lesson}/package`, {
      token: adminToken,
      body: { course_structure: bareCourse("au.html") },
    });
    expect(broken.status).toBe(422);
    expect(broken.json().payload.code).toBe("cmi5_relative_url");
    expect(lessonKind(lesson)).toBe("text");
    const both = await api(server, ORG, "PUT", `lessons/${lesson}/package`, {
      token: adminToken,
      body: { course_structure: bareCourse("https://au.example.test/a.html"), file_id: 1 },
    });
    expect(both.status).toBe(422);
    const res = await api(server, ORG, "PUT", `lessons/${lesson}/package`, {
      token: adminToken,
      body: { course_structure: bareCourse("https://au.example.test/a.html") },
    });
    expect(res.status).toBe(200);
    expect(res.json().payload).toEqual({ lesson_id: lesson, kind: "cmi5" });
    const view = (await api(server, ORG, "GET", `lessons/${lesson}/package`, { token: adminToken })).json().payload;
    expect(view).toMatchObject({
      kind: "cmi5",
      title: "Elsewhere",
      aus: [{ title: "Remote part", url: "https://au.example.test/a.html", move_on: "NotApplicable" }],
    });
    expect(
      (await api(server, ORG, "PUT", `lessons/${lesson}/package`, { token: learnerToken, body: { course_structure: "x" } })).status,
    ).toBe(403);
  });

  it("launches for the caller on the AU's own site, in their registration; a registration not theirs is refused", async () => {
    const res = await api(server, ORG, "POST", `lessons/${lesson}/launches`, {
      token: learnerToken,
      body: { au_index: 0, launch_mode: "Browse" },
    });
    expect(res.status).toBe(201);
    const launched = res.json().payload;
    expect(launched).toMatchObject({ au_id: "https://example.test/au/1", launch_mode: "Browse" });
    const url = new URL(launched.url);
    expect(url.origin).toBe("https://au.example.test");
    expect(url.searchParams.get("registration")).toBe(launched.registration);
    const again = await api(server, ORG, "POST", `lessons/${lesson}/launches`, {
      token: learnerToken,
      body: { registration: launched.registration },
    });
    expect(again.status).toBe(201);
    expect(again.json().payload.registration).toBe(launched.registration);
    const stranger = await api(server, ORG, "POST", `lessons/${lesson}/launches`, {
      token: learnerToken,
      body: { registration: "00000000-0000-4000-8000-000000000000" },
    });
    expect(stranger.status).toBe(422);
    expect((await api(server, ORG, "POST", `lessons/${lesson}/launches`, { token: learnerToken, body: { au_index: 5 } })).status).toBe(422);

    // The session left running is abandoned by hand; twice is a conflict.
    const session = again.json().payload.session_id;
    expect((await api(server, ORG, "POST", `package-sessions/${session}/abandon`, { token: learnerToken })).status).toBe(403);
    expect((await api(server, ORG, "POST", `package-sessions/${session}/abandon`, { token: adminToken })).status).toBe(200);
    expect((await api(server, ORG, "POST", `package-sessions/${session}/abandon`, { token: adminToken })).status).toBe(409);
  });

  it("waives an AU with a reason, which completes a one-AU course's lesson; a package lesson is never completed by a heartbeat", async () => {
    const heartbeat = await api(server, ORG, "POST", "lesson-progresses", {
      token: learnerToken,
      body: { lesson_id: ids.cmi5, completed: true },
    });
    expect(heartbeat.status).toBe(422);
    expect(heartbeat.json().payload.code).toBe("package_lesson");

    const launched = (await api(server, ORG, "POST", `lessons/${ids.cmi5}/launches`, { token: learnerToken, body: { au_index: 1 } })).json()
      .payload;
    const body = { registration: launched.registration, au_index: 1, reason: "Brandkursus hos brandvæsenet" };
    expect((await api(server, ORG, "POST", `lessons/${ids.cmi5}/waivers`, { token: learnerToken, body })).status).toBe(403);
    const waived = await api(server, ORG, "POST", `lessons/${ids.cmi5}/waivers`, { token: adminToken, body });
    expect(waived.status).toBe(201);
    const again = await api(server, ORG, "POST", `lessons/${ids.cmi5}/waivers`, { token: adminToken, body });
    expect(again.status).toBe(422);
    expect(again.json().payload.message).toBe("Denne enhed er allerede fritaget for denne deltager.");
    const page = await request(server.port, ORG, lessonPage(ids.cmi5), { headers: { Cookie: learnerCookie } });
    expect(page.body).toMatch(/data-state="waived">Fritaget/);
  });
});

describe("waivers on the package page", () => {
  it("lists the lesson's learners with the units left, finds them by name, and waives one with a reason", async () => {
    // The learner has an open attempt of the cmi5 lesson (launched above); Ole has none.
    const page = await request(server.port, ORG, editor(ids.cmi5), { headers: { Cookie: adminCookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-testid="package-waivers"');
    expect(page.body.match(/data-testid="waiver-learner"/g)?.length).toBeGreaterThanOrEqual(1);
    expect(page.body).toContain("learner@nordlys.test");
    const none = await request(server.port, ORG, `${editor(ids.cmi5)}?q=${encodeURIComponent("nobody%")}`, {
      headers: { Cookie: adminCookie },
    });
    expect(none.body).toContain('data-testid="waiver-none"');

    const registration = page.body.match(/name="registration" value="([0-9a-f-]{36})"/)![1];
    const waive = (cookie: string, fields: Record<string, string>) =>
      post(editor(ids.cmi5), cookie, { intent: "waive", registration, ...fields });
    const missing = await waive(adminCookie, { au: "https://lectern.example/demo/cmi5/fire-safety/evacuation", reason: " " });
    expect(missing.status).toBe(422);
    expect(missing.body).toContain("Angiv en begrundelse for fritagelsen.");
    const done = await waive(adminCookie, {
      au: "https://lectern.example/demo/cmi5/fire-safety/evacuation",
      reason: "Brandøvelse bestået",
    });
    expect(done.status).toBe(200);
    expect(done.body).toContain("Evacuation blev fritaget.");
    expect(done.body).toContain("Evacuation fritaget: Brandøvelse bestået");
    const learnerView = await request(server.port, ORG, lessonPage(ids.cmi5), { headers: { Cookie: learnerCookie } });
    expect(learnerView.body.match(/data-state="waived"/g)?.length).toBeGreaterThanOrEqual(1);

    // A learner cannot waive: the page is the admin's.
    const byLearner = await waive(learnerCookie, { au: "https://lectern.example/demo/cmi5/fire-safety/fuel", reason: "x" });
    expect(byLearner.status).toBe(403);
  });
});
