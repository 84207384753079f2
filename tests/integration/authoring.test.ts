import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startServer, type RunningServer } from "../helpers/server";
import { insertSession } from "../helpers/sessions";

let server: RunningServer;
let admin: string;
let learner: string;
const ORG = "nordlys.localhost";
beforeAll(async () => {
  // Background jobs take their steps slowly (400 ms apart), so the clone below can be cut short by a kill
  // in the middle of its copy; the other clone waits for its job however long it takes.
  server = await startServer({ env: { JOB_STEP_DELAY_MS: "400" } });
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });

async function uploadFile(name: string, type: string, data: Buffer) {
  const { body, contentType } = multipart({}, { file: { name, type, data } });
  const res = await request(server.port, ORG, "/api/files", {
    method: "POST",
    headers: { Authorization: `Bearer ${admin}`, "Content-Type": contentType },
    body,
  });
  expect(res.status, res.body).toBe(201);
  return res.json().payload.id as number;
}
const pdf = () => Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

describe("courses of each kind through /api", () => {
  it("creates a movie, a series, a download and an external-link course", async () => {
    const file = await uploadFile("guide.pdf", "application/pdf", pdf());
    const bodies = [
      { title: "Film", type: "movie" },
      { title: "Serie", type: "series", sequential_lessons: true },
      { title: "Håndbog", type: "download", file_id: file },
      { title: "Ekstern", type: "external_link", external_url: "https://example.org/course" },
    ];
    for (const body of bodies) {
      const res = await call("POST", "courses", body);
      expect(res.status, res.body).toBe(201);
      expect(res.json().payload).toMatchObject(body);
    }
  });

  it("needs each kind's own piece", async () => {
    const noUrl = await call("POST", "courses", { title: "X", type: "external_link" });
    expect(noUrl.status).toBe(422);
    expect(noUrl.json().payload.fields).toHaveProperty("external_url");
    const noFile = await call("POST", "courses", { title: "X", type: "download" });
    expect(noFile.json().payload.fields).toHaveProperty("file_id");
    const badUrl = await call("POST", "courses", { title: "X", type: "external_link", external_url: "javascript:alert(1)" });
    expect(badUrl.status).toBe(422);
  });

  it("strips script from a description when it is saved", async () => {
    const res = await call("POST", "courses", {
      title: "Sikker",
      description:
        '<p onclick="steal()">Hej <strong>alle</strong><script>alert(document.cookie)</script><img src=x onerror=alert(1)><a href="javascript:evil()">x</a></p>',
    });
    const { id, description } = res.json().payload;
    expect(description).toBe('<p>Hej <strong>alle</strong><a rel="noopener noreferrer nofollow" target="_blank">x</a></p>');
    const again = await call("PUT", `courses/${id}`, { description: "<h2>Titel</h2><iframe src=//evil></iframe>" });
    expect(again.json().payload.description).toBe("<h2>Titel</h2>");
  });

  it("finds a course by a word of its title; learners only published ones, and no writes", async () => {
    await call("POST", "courses", { title: "Kvantefysik for begyndere", published: true });
    await call("POST", "courses", { title: "Kvantefysik, kladde" });
    const forAdmin = (await call("GET", "courses/search?q=kvantefysik")).json().payload.data.map((c: { title: string }) => c.title);
    expect(forAdmin.sort()).toEqual(["Kvantefysik for begyndere", "Kvantefysik, kladde"]);
    const forLearner = (await call("GET", "courses/search?q=Kvantefysik", undefined, learner))
      .json()
      .payload.data.map((c: { title: string }) => c.title);
    expect(forLearner).toEqual(["Kvantefysik for begyndere"]);
    const percent = (await call("GET", "courses/search?q=%25")).json().payload.data; // a literal % matches only a %
    expect(percent).toEqual([]);
    for (const [method, p, body] of [
      ["POST", "courses", { title: "x" }],
      ["PUT", "courses/1", { title: "x" }],
      ["DELETE", "courses/1", undefined],
      ["POST", "courses/1/move", { direction: "down" }],
      ["POST", "courses/1/clone", undefined],
      ["POST", "lessons", { course_id: 1, title: "x" }],
      ["POST", "courses/categories", { name: "x" }],
      ["POST", "courses-carousels", { title: "x" }],
      ["POST", "materials", { course_id: 1, file_id: 1, title: "x" }],
    ] as const) {
      expect((await call(method, p, body, learner)).status, `${method} ${p}`).toBe(403);
    }
  });
});

describe("lessons", () => {
  it("are added in order and reordered by move; a movie keeps a single episode", async () => {
    const course = (await call("POST", "courses", { title: "Tre afsnit", type: "series" })).json().payload;
    const ids: number[] = [];
    for (const title of ["Et", "To", "Tre"]) {
      const res = await call("POST", "lessons", { course_id: course.id, title, kind: "text", body: "<p>Tekst</p>" });
      expect(res.status, res.body).toBe(201);
      ids.push(res.json().payload.id);
    }
    const order = async () =>
      (await call("GET", `lessons?course_id=${course.id}`)).json().payload.data.map((l: { title: string }) => l.title);
    expect(await order()).toEqual(["Et", "To", "Tre"]);
    expect((await call("POST", `lessons/${ids[2]}/move`, { position: 0 })).status).toBe(200);
    expect(await order()).toEqual(["Tre", "Et", "To"]);
    expect((await call("POST", `lessons/${ids[2]}/move`, { direction: "down" })).status).toBe(200);
    expect(await order()).toEqual(["Et", "Tre", "To"]);

    const movie = (await call("POST", "courses", { title: "Én film", type: "movie" })).json().payload;
    expect(
      (await call("POST", "lessons", { course_id: movie.id, title: "Filmen", kind: "video", video_url: "https://example.org/v.mp4" }))
        .status,
    ).toBe(201);
    const second = await call("POST", "lessons", { course_id: movie.id, title: "Mere", kind: "text" });
    expect(second.status).toBe(422);
  });

  it("check their media: a video needs a video, an image lesson an image", async () => {
    const course = (await call("POST", "courses", { title: "Medier", type: "series" })).json().payload;
    expect((await call("POST", "lessons", { course_id: course.id, title: "V", kind: "video" })).status).toBe(422);
    const doc = await uploadFile("a.pdf", "application/pdf", pdf());
    expect((await call("POST", "lessons", { course_id: course.id, title: "I", kind: "image", file_id: doc })).status).toBe(422);
    const image = await uploadFile(
      "a.png",
      "image/png",
      await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
        .png()
        .toBuffer(),
    );
    expect((await call("POST", "lessons", { course_id: course.id, title: "I", kind: "image", file_id: image })).status).toBe(201);
  });
});

describe("categories and carousels", () => {
  it("move a category among the others", async () => {
    const names = async () => (await call("GET", "courses/categories")).json().payload.data.map((c: { name: string }) => c.name);
    const before = await names();
    const created = (await call("POST", "courses/categories", { name: "Nyeste" })).json().payload;
    expect(await names()).toEqual([...before, "Nyeste"]);
    expect((await call("POST", `courses/categories/${created.id}/move`, { direction: "first" })).status).toBe(200);
    expect(await names()).toEqual(["Nyeste", ...before]);
  });

  it("keep an ordered list of courses, show learners only published carousels, and move", async () => {
    const first = (await call("POST", "courses-carousels", { title: "Udvalgt", published: true, course_ids: [2, 1] })).json().payload;
    expect(first.course_ids).toEqual([2, 1]);
    const hidden = (await call("POST", "courses-carousels", { title: "Skjult", course_ids: [1] })).json().payload;
    // The demo's own carousels are there too; these are the test's.
    const titles = async (token: string) =>
      (await call("GET", "courses-carousels", undefined, token))
        .json()
        .payload.data.map((c: { title: string }) => c.title)
        .filter((t: string) => ["Udvalgt", "Skjult"].includes(t));
    expect(await titles(admin)).toEqual(["Udvalgt", "Skjult"]);
    expect(await titles(learner)).toEqual(["Udvalgt"]);
    expect((await call("GET", `courses-carousels/${hidden.id}`, undefined, learner)).status).toBe(404);
    expect((await call("POST", `courses-carousels/${hidden.id}/move`, { position: 0 })).status).toBe(200);
    expect(await titles(admin)).toEqual(["Skjult", "Udvalgt"]);
    const bad = await call("PUT", `courses-carousels/${first.id}`, { course_ids: [999] });
    expect(bad.status).toBe(422);
    expect((await call("GET", `courses-carousels/${first.id}`)).json().payload.course_ids).toEqual([2, 1]);
  });
});

describe("cloning a course", () => {
  it("copies lessons, materials, links and files in the background, as an unpublished copy", async () => {
    const image = await uploadFile(
      "cover.png",
      "image/png",
      await sharp({ create: { width: 8, height: 8, channels: 3, background: "#09f" } })
        .png()
        .toBuffer(),
    );
    const doc = await uploadFile("noter.pdf", "application/pdf", pdf());
    const course = (
      await call("POST", "courses", {
        title: "Original",
        type: "series",
        published: true,
        cover_file_id: image,
        links: [{ title: "Kilde", url: "https://example.org" }],
      })
    ).json().payload;
    await call("POST", "lessons", { course_id: course.id, title: "Lektion 1", kind: "image", file_id: image });
    await call("POST", "lessons", { course_id: course.id, title: "Lektion 2", kind: "text", body: "<p>Hej</p>" });
    await call("POST", "materials", { course_id: course.id, file_id: doc, title: "Noter" });

    const started = await call("POST", `courses/${course.id}/clone`);
    expect(started.status).toBe(202);
    const job = await waitForJob(started.json().payload.id);
    expect(job.status).toBe("done");
    const copy = (await call("GET", `courses/${job.result.course_id}`)).json().payload;
    expect(copy).toMatchObject({ title: "Original (kopi)", published: false, type: "series" });
    expect(copy.links.map((l: { title: string }) => l.title)).toEqual(["Kilde"]);
    expect(copy.cover_file_id).not.toBe(image);
    const copiedLessons = (await call("GET", `lessons?course_id=${copy.id}`)).json().payload.data;
    expect(copiedLessons.map((l: { title: string }) => l.title)).toEqual(["Lektion 1", "Lektion 2"]);
    expect(copiedLessons[0].file_id).toBe(copy.cover_file_id);
    const copiedMaterials = (await call("GET", `materials?course_id=${copy.id}`)).json().payload.data;
    expect(copiedMaterials).toHaveLength(1);
    expect(copiedMaterials[0].file_id).not.toBe(doc);
    // The copy's files are files of their own: deleting the original's keeps the copy's.
    expect((await call("DELETE", `files/${doc}`)).status).toBe(200);
    const url = (await call("GET", `files/${copiedMaterials[0].file_id}/download`)).json().payload.url;
    expect((await request(server.port, ORG, new URL(url).pathname)).status).toBe(200);
  });
});

async function waitForJob(id: number, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await call("GET", `jobs/${id}`)).json().payload;
    if (job.status === "done" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("a clone interrupted by a restart", () => {
  it("completes after the server comes back, leaving no half copy", async () => {
    const dataDir = server.dataDir;
    const sizes = [1, 2, 3, 4, 5, 6];
    const course = (await call("POST", "courses", { title: "Stor", type: "series" })).json().payload;
    for (const n of sizes) {
      const doc = await uploadFile(`del-${n}.pdf`, "application/pdf", Buffer.concat([pdf(), Buffer.alloc(50_000 * n, 0x20)]));
      await call("POST", "materials", { course_id: course.id, file_id: doc, title: `Del ${n}` });
    }
    const countCourses = async () => (await call("GET", "courses?per_page=100")).json().payload.meta.total;
    const before = await countCourses();
    const jobId = (await call("POST", `courses/${course.id}/clone`)).json().payload.id;
    for (let i = 0; ; i++) {
      const job = (await call("GET", `jobs/${jobId}`)).json().payload;
      if (job.status === "running" && job.progress > 5) break;
      if (i > 100) throw new Error(`job did not get going: ${JSON.stringify(job)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    server.process.kill("SIGKILL");
    await new Promise((r) => server.process.once("exit", r));
    expect(fs.readdirSync(path.join(dataDir, "org-2", "files")).some((f) => f.startsWith(".clone-"))).toBe(true);

    server = await startServer({ dataDir });
    expect(await countCourses()).toBe(before); // nothing half-made is visible
    const job = await waitForJob(jobId);
    expect(job.status).toBe("done");
    expect((await call("GET", `materials?course_id=${job.result.course_id}`)).json().payload.data).toHaveLength(sizes.length);
    expect(await countCourses()).toBe(before + 1);
    expect(fs.readdirSync(path.join(dataDir, "org-2", "files")).some((f) => f.startsWith(".clone-"))).toBe(false);
    // A server start, six uploads and a copy in slow steps: 29 s once on a machine running four test files.
  }, 90_000);
});

describe("authoring through the pages (no JavaScript)", () => {
  it("creates a course of each kind, adds and reorders lessons, and publishes", async () => {
    const { postForm } = await import("../helpers/auth");
    const { cookieFor } = await import("../helpers/sessions");
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
    const file = await uploadFile("side.pdf", "application/pdf", pdf());
    const base = "/dashboard/organizations/2/courses";
    const kinds: Array<Record<string, string>> = [
      { title: "Side film", type: "movie" },
      { title: "Side serie", type: "series" },
      { title: "Side download", type: "download", file_id: String(file) },
      { title: "Side link", type: "external_link", external_url: "https://example.org/x" },
    ];
    const ids: number[] = [];
    for (const fields of kinds) {
      const res = await postForm(server, ORG, `${base}/create`, fields, cookie);
      expect(res.status, res.body.slice(0, 300)).toBe(302);
      ids.push(Number(res.headers.location!.split("/").pop()));
    }
    const missing = await postForm(server, ORG, `${base}/create`, { title: "Uden adresse", type: "external_link" }, cookie);
    expect(missing.status).toBe(400);
    expect(missing.body).toContain("Feltet skal udfyldes.");

    const series = ids[1];
    for (const title of ["A", "B", "C"]) {
      expect(
        (await postForm(server, ORG, `${base}/${series}`, { intent: "add-lesson", lesson_title: title, lesson_kind: "text" }, cookie))
          .status,
      ).toBe(302);
    }
    const lessons = async () =>
      (await call("GET", `lessons?course_id=${series}`)).json().payload.data as Array<{ id: number; title: string }>;
    const [, , c] = await lessons();
    await postForm(server, ORG, `${base}/${series}`, { intent: "move-lesson:up", id: String(c.id) }, cookie);
    expect((await lessons()).map((l) => l.title)).toEqual(["A", "C", "B"]);
    await postForm(server, ORG, `${base}/${series}`, { intent: "publish" }, cookie);
    expect((await call("GET", `courses/${series}`)).json().payload.published).toBe(true);
  });
});
