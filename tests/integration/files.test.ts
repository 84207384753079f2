import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { listFiles } from "../helpers/server";
import { insertSession } from "../helpers/sessions";

let server: InProcessServer;
let admin: string;
const ORG = "nordlys.localhost";
const LIMIT = 300_000;
beforeAll(async () => {
  server = await startInProcess({ env: { FILE_MAX_BYTES: String(LIMIT), DOWNLOAD_TTL_SECONDS: "2" } });
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

const png = () =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
const filesDir = () => path.join(server.dataDir, "org-2", "files");
const stored = () => (fs.existsSync(filesDir()) ? listFiles(filesDir()) : []);

async function upload(name: string, type: string, data: Buffer, host = ORG, token = admin) {
  const { body, contentType } = multipart({}, { file: { name, type, data } });
  return request(server.port, host, "/api/files", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
    body,
  });
}

async function downloadUrl(id: number, host = ORG) {
  const res = await request(server.port, host, `/api/files/${id}/download`, { headers: { Authorization: `Bearer ${admin}` } });
  expect(res.status).toBe(200);
  return new URL(res.json().payload.url);
}

describe("uploads", () => {
  it("stores an image, re-encoded, and serves it through a signed address with ranges", async () => {
    const image = Buffer.concat([await png(), Buffer.from("<script>alert(1)</script>")]);
    const res = await upload("logo.png", "image/png", image);
    expect(res.status).toBe(201);
    const file = res.json().payload;
    expect(file).toMatchObject({ type: "image", mime: "image/png", name: "logo.png" });

    const url = await downloadUrl(file.id);
    expect(url.origin).toBe(`http://nordlys.localhost:${server.port}`);
    const got = await request(server.port, ORG, url.pathname);
    expect(got.status).toBe(200);
    expect(got.headers["content-type"]).toBe("image/png");
    expect(got.headers["content-disposition"]).toMatch(/^attachment; filename="logo.png"/);
    expect(got.headers["x-content-type-options"]).toBe("nosniff");
    expect(got.raw.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(got.raw.includes(Buffer.from("<script>"))).toBe(false); // the appended payload did not survive
    expect((await sharp(got.raw).metadata()).width).toBe(40);

    const part = await request(server.port, ORG, url.pathname, { headers: { Range: "bytes=0-7" } });
    expect(part.status).toBe(206);
    expect(part.raw.length).toBe(8);
  });

  it("refuses an HTML page renamed to .png and keeps nothing of it", async () => {
    const before = stored();
    const res = await upload(
      "innocent.png",
      "image/png",
      Buffer.from("<!DOCTYPE html><html><script>alert(document.cookie)</script></html>"),
    );
    expect(res.status).toBe(415);
    expect(res.json().payload).toMatchObject({ code: "type_not_allowed", message: "Denne filtype er ikke tilladt her." });
    expect(stored()).toEqual(before);
  });

  it("refuses SVG, which can carry scripts", async () => {
    const res = await upload(
      "logo.svg",
      "image/svg+xml",
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    );
    expect(res.status).toBe(415);
  });

  it("refuses an oversize file with a clear error, leaving no file behind", async () => {
    const before = stored();
    const big = Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(LIMIT * 2, 0x20)]);
    const res = await upload("big.pdf", "application/pdf", big);
    expect(res.status).toBe(413);
    expect(res.json().payload.message).toBe("Filen er for stor: den må højst fylde 293 KB.");
    expect(stored()).toEqual(before);
  });

  it("lists files, by type too, and deletes the bytes with the row", async () => {
    const pdf = await upload("handbook.pdf", "application/pdf", Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"));
    expect(pdf.status).toBe(201);
    const id = pdf.json().payload.id;
    const documents = await request(server.port, ORG, "/api/files/type/document", { headers: { Authorization: `Bearer ${admin}` } });
    expect(documents.json().payload.data.map((f: { id: number }) => f.id)).toContain(id);
    const images = await request(server.port, ORG, "/api/files/type/image", { headers: { Authorization: `Bearer ${admin}` } });
    expect(images.json().payload.data.map((f: { id: number }) => f.id)).not.toContain(id);
    const url = await downloadUrl(id);
    const count = stored().length;
    const del = await request(server.port, ORG, `/api/files/${id}`, { method: "DELETE", headers: { Authorization: `Bearer ${admin}` } });
    expect(del.status).toBe(200);
    expect(stored().length).toBe(count - 1);
    expect((await request(server.port, ORG, url.pathname)).status).toBe(404);
  });
});

describe("signed download addresses", () => {
  it("stop working when they expire, when tampered with, and on another organization's host", async () => {
    const id = (await upload("a.png", "image/png", await png())).json().payload.id;
    const url = await downloadUrl(id);
    expect((await request(server.port, ORG, url.pathname)).status).toBe(200);
    expect((await request(server.port, "acme.localhost", url.pathname)).status).toBe(404);
    const parts = url.pathname.split("/");
    parts[4] = parts[4].slice(0, -1) + (parts[4].endsWith("A") ? "B" : "A");
    expect((await request(server.port, ORG, parts.join("/"))).status).toBe(404);
    const later = url.pathname.replace(/\/files\/(\d+)\/(\d+)\//, (_m, i, e) => `/files/${i}/${Number(e) + 3600}/`);
    expect((await request(server.port, ORG, later)).status).toBe(404); // a longer life needs a new signature
    await new Promise((r) => setTimeout(r, 3100));
    expect((await request(server.port, ORG, url.pathname)).status).toBe(404);
  });
});
