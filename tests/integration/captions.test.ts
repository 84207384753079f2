import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { checkReply } from "../helpers/contract";
import { multipart, request, type HttpResponse } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Issue 35 (docs/decisions/036-captions.md): caption tracks through /api and the lesson's captions screen,
 * a bad file's message naming its line with nothing stored, who may fetch a track, the learner's settings,
 * and the words spoken in the organization's search as the viewer may see them.
 */
const ORG = "nordlys.localhost";
let server: InProcessServer;
let admin: string;
let learner: string;
let course: { id: number };
let lesson: { id: number };
let draftLesson: { id: number };
const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });

const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), Buffer.alloc(12), Buffer.from("0123456789".repeat(20))]);

// As a subtitle editor saves it on Windows: a BOM, CRLF, italics, a colour and a positioning code.
const srt =
  '\uFEFF1\r\n00:00:01,000 --> 00:00:03,500\r\n<i>Welcome</i> to the <font color="#ff0">forklift</font> course.\r\n\r\n' +
  "2\r\n00:00:04,000 --> 00:00:07,000\r\n{\\an8}Always check the brakes first.\r\n\r\n" +
  "3\r\n00:00:06,500 --> 00:00:09,000\r\nThe zebrafinch word is our search test.\r\n";

const vtt = (text: string) => `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n${text}\n\n00:00:02.000 --> 00:00:04.000\nSecond cue.\n`;

function send(method: string, p: string, fields: Record<string, string>, file?: { name: string; data: Buffer }, token = admin) {
  const { body, contentType } = multipart(fields, file ? { file: { ...file, type: "application/octet-stream" } } : {});
  return request(server.port, ORG, `/api/${p}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
    body,
  }).then((res) => (checkReply(method, `/api/${p}`, res), res));
}

function counts() {
  const db = new Database(path.join(server.dataDir, "org-2", "db.sqlite"), { readonly: true });
  try {
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      tracks: n("select count(*) as n from caption_tracks"),
      cues: n("select count(*) as n from caption_cues"),
      files: n("select count(*) as n from files"),
      indexed: n("select count(*) as n from search_index where kind = 'cue'"),
    };
  } finally {
    db.close();
  }
}

const get = (url: string, headers: Record<string, string> = {}) =>
  request(server.port, ORG, new URL(url, "http://x").pathname, { headers });

async function uploadVideo() {
  const res = await send("POST", "files", {}, { name: "film.mp4", data: mp4 });
  expect(res.status).toBe(201);
  return res.json().payload.id as number;
}

beforeAll(async () => {
  server = await startInProcess();
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
  course = (await call("POST", "courses", { title: "Truck", type: "series", published: true })).json().payload;
  lesson = (
    await call("POST", "lessons", { course_id: course.id, title: "Gaffeltruck", kind: "video", file_id: await uploadVideo() })
  ).json().payload;
  const draft = (await call("POST", "courses", { title: "Kladde", type: "series", published: false })).json().payload;
  draftLesson = (
    await call("POST", "lessons", { course_id: draft.id, title: "Hemmelig", kind: "video", file_id: await uploadVideo() })
  ).json().payload;
});
afterAll(() => server?.stop());

describe("caption tracks through /api", () => {
  let track: { id: number; url: string; cue_count: number; label: string };

  it("takes an SRT file, keeps it as WebVTT, and serves it at a signed address", async () => {
    const res = await send(
      "POST",
      `lessons/${lesson.id}/tracks`,
      { language: "en", label: "" },
      { name: "truck.srt", data: Buffer.from(srt) },
    );
    expect(res.status).toBe(201);
    track = res.json().payload;
    expect(track).toMatchObject({ language: "en", label: "English", cue_count: 3 });
    const file = await get(track.url);
    expect(file.status).toBe(200);
    expect(file.headers["content-type"]).toMatch(/^text\/vtt/);
    expect(file.body).toBe(
      "WEBVTT\n\n00:00:01.000 --> 00:00:03.500\n<i>Welcome</i> to the forklift course.\n\n" +
        "00:00:04.000 --> 00:00:07.000\nAlways check the brakes first.\n\n00:00:06.500 --> 00:00:09.000\nThe zebrafinch word is our search test.\n",
    );
    // The lesson's reply names its tracks, for the learner too.
    const read = await call("GET", `lessons/${lesson.id}`, undefined, learner);
    expect(read.json().payload.tracks).toEqual([expect.objectContaining({ id: track.id, language: "en", label: "English" })]);
    const listed = await call("GET", `lessons/${lesson.id}/tracks`, undefined, learner);
    expect(listed.json().payload.map((t: { id: number }) => t.id)).toEqual([track.id]);
  });

  it("refuses a file that is not WebVTT or SRT, naming its line, and stores nothing", async () => {
    const before = counts();
    // No signature: a file named .vtt must start with WEBVTT.
    const bad = "WEBVT\n\n00:00:01.000 --> 00:00:02.000\nfine\n";
    const res = await send("POST", `lessons/${lesson.id}/tracks`, { language: "da" }, { name: "bad.vtt", data: Buffer.from(bad) });
    expect(res.status).toBe(422);
    const { code, message, fields } = res.json().payload;
    expect(code).toBe("caption_file");
    expect(message).toContain("Linje 1"); // the admin's language is the organization's: Danish
    expect(message).toContain("(“WEBVT”)");
    expect(fields.file).toEqual([message]);
    // A WebVTT file with no cue to keep says why.
    const nothing = await send(
      "POST",
      `lessons/${lesson.id}/tracks`,
      { language: "da" },
      { name: "zero.vtt", data: Buffer.from("WEBVTT\n\n00:00:05.000 --> 00:00:05.000\nnever shown\n") },
    );
    expect([nothing.status, nothing.json().payload.message]).toEqual([
      422,
      "Filen indeholder ingen tekster, der kan vises. Linje 3 (“00:00:05.000 --> 00:00:05.000”): teksten begynder og slutter i samme øjeblik, så den ville aldrig blive vist og blev udeladt.",
    ]);
    // SRT keeps its strict reader; a cue that ends as it starts is named as such (not "ends before it starts").
    const zero = await send(
      "POST",
      `lessons/${lesson.id}/tracks`,
      { language: "da" },
      { name: "zero.srt", data: Buffer.from("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:05,000 --> 00:00:05,000\nnever shown\n") },
    );
    expect([zero.status, zero.json().payload.message]).toEqual([
      422,
      "Linje 6 (“00:00:05,000 --> 00:00:05,000”): teksten begynder og slutter i samme øjeblik, så den ville aldrig blive vist. Giv den en slutning efter begyndelsen.",
    ]);
    const latin1 = Buffer.concat([Buffer.from("1\n00:00:01,000 --> 00:00:02,000\nK"), Buffer.from([0xf8]), Buffer.from("benhavn\n")]);
    const encoded = await send("POST", `lessons/${lesson.id}/tracks`, { language: "da" }, { name: "old.srt", data: latin1 });
    expect([encoded.status, encoded.json().payload.message]).toEqual([422, expect.stringContaining("Linje 3")]);
    const wrongLanguage = await send(
      "POST",
      `lessons/${lesson.id}/tracks`,
      { language: "Danish!" },
      { name: "a.vtt", data: Buffer.from(vtt("x")) },
    );
    expect([wrongLanguage.status, Object.keys(wrongLanguage.json().payload.fields)]).toEqual([422, ["language"]]);
    const tooLarge = await send(
      "POST",
      `lessons/${lesson.id}/tracks`,
      { language: "da" },
      { name: "big.vtt", data: Buffer.alloc(1024 * 1024 + 10, "a") },
    );
    expect(tooLarge.status).toBe(413);
    expect(counts()).toEqual(before);
  });

  // Issue 44, item 6 (the probe's reproductions): web-platform-tests' arrows.vtt, newlines.vtt and
  // whitespace-chars.vtt, which browsers play, were refused with 422 "has a time that is not valid"; a stray bad
  // cue refused the whole file. Now the cues a browser shows are kept and what it passes over is listed.
  it("takes the WebVTT files browsers play, leaving out what they leave out, with the lines in warnings", async () => {
    const before = counts();
    const fixture = (name: string) => fs.readFileSync(path.resolve(__dirname, "../fixtures/webvtt-wpt", name));
    const replies = [];
    for (const name of ["arrows.vtt", "newlines.vtt", "whitespace-chars.vtt"]) {
      const res = await send("POST", `lessons/${lesson.id}/tracks`, { language: "fi" }, { name, data: fixture(name) });
      expect(res.status, name).toBe(201);
      replies.push(res.json().payload);
    }
    const [arrows, newlines, whitespace] = replies;
    expect([arrows.cue_count, arrows.warning_count, newlines.cue_count, newlines.warning_count]).toEqual([6, 9, 4, 0]);
    expect(arrows.warnings[0]).toEqual({
      line: 3,
      problem: "timing",
      message: "Linje 3 (“-->”) er ikke en tidslinje, der kan læses (som 00:00:01.000 --> 00:00:04.000), så teksten blev udeladt.",
    });
    expect(whitespace).toMatchObject({ cue_count: 3, warning_count: 1, warnings: [{ line: 16, problem: "timing" }] });
    // The file kept is the one we wrote from the cues (the last upload replaced the track of that language).
    expect((await get(whitespace.url)).body).toBe(
      "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\ntext0\n\n00:00:00.000 --> 00:00:01.000\ntext1\n\n00:00:00.000 --> 00:00:01.000\ntext2\n",
    );

    // A stray bad cue: the rest is kept, the bad one named by its line.
    const stray =
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n\n00:00:03.000 --> 00:00:0x.000\nbroken\n\n00:00:04.000 --> 00:00:04.000\nzero\n\n00:00:05.000 --> 00:00:06.000\nalso fine\n";
    const res = await send("POST", `lessons/${lesson.id}/tracks`, { language: "fi" }, { name: "stray.vtt", data: Buffer.from(stray) });
    expect(res.status).toBe(201);
    expect(res.json().payload).toMatchObject({
      cue_count: 2,
      warning_count: 2,
      warnings: [
        { line: 6, problem: "timing", message: expect.stringContaining("Linje 6 (“00:00:03.000 --> 00:00:0x.000”)") },
        { line: 9, problem: "zero_length", message: expect.stringContaining("begynder og slutter i samme øjeblik") },
      ],
    });
    expect((await get(res.json().payload.url)).body).toBe(
      "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfine\n\n00:00:05.000 --> 00:00:06.000\nalso fine\n",
    );
    expect((await call("DELETE", `lessons/${lesson.id}/tracks/${res.json().payload.id}`)).status).toBe(200);
    expect(counts()).toEqual(before);
  });

  it("adds a second language, replaces a track by its language or id, relabels it, and deletes it", async () => {
    const da = await send(
      "POST",
      `lessons/${lesson.id}/tracks`,
      { language: "da", label: "Dansk" },
      { name: "da.vtt", data: Buffer.from(vtt("Hej")) },
    );
    expect(da.status).toBe(201);
    const first = da.json().payload;
    // The same language again replaces the track: same id, a new file, the old address gone.
    const again = await send(
      "POST",
      `lessons/${lesson.id}/tracks`,
      { language: "da", label: "Dansk" },
      { name: "da.vtt", data: Buffer.from(vtt("Hejsa")) },
    );
    expect(again.status).toBe(201);
    expect(again.json().payload.id).toBe(first.id);
    expect((await get(first.url)).status).toBe(404);
    expect((await get(again.json().payload.url)).body).toContain("Hejsa");

    const replaced = await send(
      "PUT",
      `lessons/${lesson.id}/tracks/${first.id}`,
      {},
      { name: "da.srt", data: Buffer.from("1\n00:00:00,000 --> 00:00:01,000\nÉn\n") },
    );
    expect(replaced.status).toBe(200);
    expect(replaced.json().payload).toMatchObject({ id: first.id, language: "da", label: "Dansk", cue_count: 1 });
    const relabelled = await call("PUT", `lessons/${lesson.id}/tracks/${first.id}`, { label: "Dansk (tekstet)" });
    expect(relabelled.json().payload).toMatchObject({ language: "da", label: "Dansk (tekstet)", cue_count: 1 });
    const clash = await call("PUT", `lessons/${lesson.id}/tracks/${first.id}`, { language: "en" });
    expect(clash.status).toBe(422);

    const before = counts();
    expect((await call("DELETE", `lessons/${lesson.id}/tracks/${first.id}`)).json().payload).toEqual({ id: first.id, deleted: true });
    expect(counts()).toEqual({ tracks: before.tracks - 1, cues: before.cues - 1, files: before.files - 1, indexed: before.indexed - 1 });
    expect((await call("DELETE", `lessons/${lesson.id}/tracks/${first.id}`)).status).toBe(404);
  });

  it("lets only editors change tracks, and only video lessons have them", async () => {
    expect(
      (await send("POST", `lessons/${lesson.id}/tracks`, { language: "sv" }, { name: "a.vtt", data: Buffer.from(vtt("x")) }, learner))
        .status,
    ).toBe(403);
    expect((await call("DELETE", `lessons/${lesson.id}/tracks/${track.id}`, undefined, learner)).status).toBe(403);
    const text = (await call("POST", "lessons", { course_id: course.id, title: "Tekst", kind: "text", body: "<p>x</p>" })).json().payload;
    const res = await send("POST", `lessons/${text.id}/tracks`, { language: "da" }, { name: "a.vtt", data: Buffer.from(vtt("x")) });
    expect([res.status, res.json().payload.code]).toEqual([422, "not_video"]);
  });
});

describe("who may fetch a track, and find the words spoken", () => {
  it("gives a learner no track of a lesson they may not open, and a guessed address nothing", async () => {
    const res = await send(
      "POST",
      `lessons/${draftLesson.id}/tracks`,
      { language: "da" },
      { name: "d.vtt", data: Buffer.from(vtt("Hemmeligt kodeord: kolibri")) },
    );
    expect(res.status).toBe(201);
    const hidden = res.json().payload;
    expect((await call("GET", `lessons/${draftLesson.id}/tracks`, undefined, learner)).status).toBe(404);
    expect((await call("GET", `lessons/${draftLesson.id}`, undefined, learner)).status).toBe(404);
    const page = await request(server.port, ORG, `/courses/${course.id}/lessons/${draftLesson.id}`, {
      headers: { Cookie: await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" })) },
    });
    expect(page.status).toBe(404);
    expect(page.body).not.toContain(".vtt");
    // The file's id with a made-up signature, or an expired one, is a 404.
    const [, , id, expires] = new URL(hidden.url).pathname.split("/");
    expect((await get(`/files/${id}/${expires}/${"A".repeat(43)}/x.vtt`)).status).toBe(404);
    expect((await get(`/files/${id}/1000/${"A".repeat(43)}/x.vtt`)).status).toBe(404);
  });

  it("finds words spoken in videos the viewer may open, at their moment", async () => {
    const found = await call("GET", "search?q=zebrafinch", undefined, learner);
    expect(found.json().payload.data).toEqual([
      {
        kind: "transcript",
        id: lesson.id,
        course_id: course.id,
        title: "Gaffeltruck",
        snippet: "The zebrafinch word is our search test.",
        seconds: 6,
      },
    ]);
    // A draft's transcript is found by its editors only.
    expect((await call("GET", "search?q=kolibri", undefined, learner)).json().payload.meta.total).toBe(0);
    expect((await call("GET", "search?q=kolibri")).json().payload.data[0]).toMatchObject({
      kind: "transcript",
      id: draftLesson.id,
      seconds: 0,
    });
    // The page links to the lesson at that moment, and the lesson page starts there.
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
    const page = await request(server.port, ORG, "/search?q=zebrafinch", { headers: { Cookie: cookie } });
    expect(page.body).toContain(`href="/courses/${course.id}/lessons/${lesson.id}?t=6"`);
    const player = await request(server.port, ORG, `/courses/${course.id}/lessons/${lesson.id}?t=6`, { headers: { Cookie: cookie } });
    expect(player.body).toMatch(/<video src="\/files\/[^"]+#t=6"/);
    expect(player.body).toMatch(/<track kind="captions" src="\/files\/[^"]+\.vtt" srcLang="en" label="English"/);
    // The transcript, as plain text and links to each moment, without JavaScript.
    expect(player.body).toContain(`href="/courses/${course.id}/lessons/${lesson.id}?t=4&amp;transcript=en"`);
    expect(player.body).toContain("Always check the brakes first.");
  });

  it("keeps the learner's caption language and speed, and the page follows them", async () => {
    const bad = await call("PUT", "player-preferences", { playback_rate: 3 }, learner);
    expect(bad.status).toBe(422);
    const saved = await call("PUT", "player-preferences", { captions: "off", playback_rate: 1.5 }, learner);
    expect(saved.json().payload).toEqual({ captions: "off", playback_rate: 1.5 });
    expect((await call("GET", "player-preferences", undefined, learner)).json().payload).toEqual({ captions: "off", playback_rate: 1.5 });
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
    const off = await request(server.port, ORG, `/courses/${course.id}/lessons/${lesson.id}`, { headers: { Cookie: cookie } });
    expect(off.body).not.toMatch(/<track[^>]*default/);
    await call("PUT", "player-preferences", { captions: "en" }, learner);
    const on = await request(server.port, ORG, `/courses/${course.id}/lessons/${lesson.id}`, { headers: { Cookie: cookie } });
    expect(on.body).toMatch(/<track[^>]*srcLang="en"[^>]*default=""/);
  });
});

describe("a course copy", () => {
  it("copies its lessons' tracks with their own files and cues, found by the search", async () => {
    const started = await call("POST", `courses/${course.id}/clone`);
    expect(started.status).toBe(202);
    let job = started.json().payload;
    for (let i = 0; i < 200 && job.status !== "done" && job.status !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await call("GET", `jobs/${job.id}`)).json().payload;
    }
    expect(job.status).toBe("done");
    const copied = (await call("GET", `lessons?course_id=${job.result.course_id}`)).json().payload.data;
    const video = copied.find((l: { kind: string }) => l.kind === "video");
    const original = (await call("GET", `lessons/${lesson.id}/tracks`)).json().payload;
    expect(video.tracks.map((t: { language: string }) => t.language)).toEqual(original.map((t: { language: string }) => t.language));
    expect(video.tracks[0].url).not.toBe(original[0].url);
    expect((await get(video.tracks[0].url)).body).toBe((await get(original[0].url)).body);
    const hits = (await call("GET", "search?q=zebrafinch")).json().payload.data;
    expect(hits.map((h: { id: number }) => h.id).sort()).toEqual([lesson.id, video.id].sort());
  });
});

describe("the lesson's captions screen without JavaScript", () => {
  it("uploads, shows a bad file's line, and deletes", async () => {
    const cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
    const screen = `/dashboard/organizations/2/courses/${course.id}/lessons/${lesson.id}/captions`;
    const post = (fields: Record<string, string>, file?: { name: string; data: Buffer }): Promise<HttpResponse> => {
      const { body, contentType } = multipart(fields, file ? { file: { ...file, type: "text/plain" } } : {});
      return request(server.port, ORG, screen, {
        method: "POST",
        headers: { Cookie: cookie, Origin: `http://${ORG}`, "Content-Type": contentType },
        body,
      });
    };
    const page = await request(server.port, ORG, screen, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toContain("English");

    const refused = await post(
      { language: "sv", label: "" },
      { name: "sv.srt", data: Buffer.from("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\nno timing\n") },
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toContain("Linje 6");
    // A file with a part left out: saved, and the page says so beside the success, naming the line.
    const partly = await post(
      { language: "sv", label: "" },
      { name: "sv.vtt", data: Buffer.from("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHej\n\n00:00:03.000 --> 00:00:02.000\nbakåt\n") },
    );
    expect(partly.status).toBe(200);
    expect(partly.body).toContain("Underteksterne er gemt.");
    expect(partly.body).toContain("1 del af filen blev udeladt:");
    expect(partly.body).toMatch(
      /<ul data-testid="captions-warnings"><li>Linje 6 \(“00:00:03\.000 --&gt; 00:00:02\.000”\): teksten slutter, før den begynder, så den ville aldrig blive vist og blev udeladt\.<\/li><\/ul>/,
    );
    expect(partly.body).toContain("Svenska");
    const added = await post(
      { language: "sv", label: "" },
      { name: "sv.srt", data: Buffer.from("1\n00:00:01,000 --> 00:00:02,000\nHej då\n") },
    );
    expect([added.status, added.headers.location]).toEqual([302, `${screen}?saved=1`]);
    const listed = await request(server.port, ORG, `${screen}?saved=1`, { headers: { Cookie: cookie } });
    expect(listed.body).toContain("Svenska");
    const id = /name="track_id" value="(\d+)"\/><button[^>]*data-testid="captions-delete-sv"/.exec(listed.body)?.[1];
    expect(id).toBeTruthy();
    const deleted = await request(server.port, ORG, screen, {
      method: "POST",
      headers: { Cookie: cookie, Origin: `http://${ORG}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: `track_id=${id}&intent=delete`,
    });
    expect([deleted.status, deleted.headers.location]).toEqual([302, `${screen}?deleted=1`]);
  });
});
