import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { insertSession } from "../helpers/sessions";

/** `GET /api/cdn/video/{id}` (docs/product.md §7 "Files"): a signed, expiring address of a video, with ranges. */
let server: InProcessServer;
let admin: string;
let learner: string;
const ORG = "nordlys.localhost";
const call = (method: string, p: string, body?: unknown, token = admin) => api(server, ORG, method, p, { token, body });

// An MP4's first box is enough for the upload's type check; the bytes after it are what ranges return.
const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), Buffer.alloc(12), Buffer.from("0123456789".repeat(100))]);

async function uploadVideo() {
  const { body, contentType } = multipart({}, { file: { name: "clip.mp4", type: "video/mp4", data: mp4 } });
  const res = await request(server.port, ORG, "/api/files", {
    method: "POST",
    headers: { Authorization: `Bearer ${admin}`, "Content-Type": contentType },
    body,
  });
  expect(res.status).toBe(201);
  return res.json().payload.id as number;
}

beforeAll(async () => {
  server = await startInProcess();
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  learner = insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

describe("GET /api/cdn/video/{id}", () => {
  it("gives a learner the address of a lesson's video, which serves ranges until it expires", async () => {
    const file = await uploadVideo();
    const course = (await call("POST", "courses", { title: "Film", type: "movie", published: true })).json().payload;
    expect((await call("POST", "lessons", { course_id: course.id, title: "Film", kind: "video", file_id: file })).status).toBe(201);

    const res = await call("GET", `cdn/video/${file}`, undefined, learner);
    expect(res.status).toBe(200);
    const { url, expires_at, mime, size } = res.json().payload;
    expect([mime, size]).toEqual(["video/mp4", mp4.length]);
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(5 * 3600 * 1000);
    const address = new URL(url);
    expect(address.host).toBe(`${ORG}:${server.port}`);
    const part = await request(server.port, ORG, address.pathname, { headers: { Range: "bytes=24-33" } });
    expect(part.status).toBe(206);
    expect(part.body).toBe("0123456789");
    expect(part.headers["content-range"]).toBe(`bytes 24-33/${mp4.length}`);
  });

  it("refuses a learner a video no lesson they may open uses, and anyone a file that is not a video", async () => {
    const loose = await uploadVideo();
    expect((await call("GET", `cdn/video/${loose}`, undefined, learner)).status).toBe(404);
    expect((await call("GET", `cdn/video/${loose}`)).status).toBe(200); // the file library's readers may

    const draft = (await call("POST", "courses", { title: "Kladde", type: "movie", published: false })).json().payload;
    const hidden = await uploadVideo();
    await call("POST", "lessons", { course_id: draft.id, title: "Kladde", kind: "video", file_id: hidden });
    expect((await call("GET", `cdn/video/${hidden}`, undefined, learner)).status).toBe(404);

    expect((await call("GET", "cdn/video/999999")).status).toBe(404);
    expect((await call("GET", "cdn/video/abc")).status).toBe(404);
    expect((await api(server, ORG, "GET", `cdn/video/${loose}`, {})).status).toBe(401);
    // Another organization's host knows nothing of Nordlys's files.
    const acmeAdmin = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    expect((await api(server, "acme.localhost", "GET", `cdn/video/${loose}`, { token: acmeAdmin })).status).toBe(404);
  });
});
