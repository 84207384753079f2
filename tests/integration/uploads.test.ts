import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantDb } from "../helpers/auth";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Every page that takes a file goes through one helper (app/kernel/upload.server.ts): the type comes from the
 * file's bytes, never from what the browser says; a file too large is refused with a translated message naming
 * the limit that applied (an image's own, or any file's). Limits are small here: images 20 KB, files 100 KB.
 */
const ACME = "acme.localhost";
let server: InProcessServer;
let admin: string;

beforeAll(async () => {
  server = await startInProcess({ env: { IMAGE_MAX_BYTES: String(20 * 1024), FILE_MAX_BYTES: String(100 * 1024) } });
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
});
afterAll(() => server?.stop());

function upload(path: string, fields: Record<string, string>, name: string, file: { name: string; type: string; data: Buffer }) {
  const { body, contentType } = multipart(fields, { [name]: file });
  return request(server.port, ACME, path, {
    method: "POST",
    headers: { Cookie: admin, "Content-Type": contentType, "Sec-Fetch-Site": "same-origin" },
    body,
  });
}

const pdf = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
/** A PNG of noise: it does not compress, so its size is about its pixels'. */
const noise = (width: number, height: number) =>
  sharp(Buffer.from(Array.from({ length: width * height * 3 }, () => Math.floor(Math.random() * 256))), {
    raw: { width, height, channels: 3 },
  })
    .png()
    .toBuffer();

function firstId(sql: string) {
  const db = tenantDb(server, 1);
  try {
    return (db.prepare(sql).get() as { id: number }).id;
  } finally {
    db.close();
  }
}

describe("one upload helper", () => {
  it("the branding form: a PDF sent as image/png is refused for its bytes, an image too large names the image limit", async () => {
    const disguised = await upload("/dashboard/organizations/1?index", { field: "logo", intent: "upload" }, "image", {
      name: "logo.png",
      type: "image/png",
      data: pdf,
    });
    expect(disguised.status).toBe(415);
    expect(disguised.body).toContain("This type of file is not allowed here.");
    const large = await upload("/dashboard/organizations/1?index", { field: "logo", intent: "upload" }, "image", {
      name: "logo.png",
      type: "image/png",
      data: await noise(120, 120),
    });
    expect(large.status).toBe(413);
    expect(large.body).toContain("The file is too large: the limit is 20 KB.");
  });

  it("a certificate template's background: images only, by their bytes", async () => {
    const template = firstId("select id from certificate_templates order by id limit 1");
    const path = `/dashboard/organizations/1/certificate-templates/${template}`;
    const disguised = await upload(path, { intent: "upload" }, "file", { name: "bg.png", type: "image/png", data: pdf });
    expect(disguised.status).toBe(415);
    expect(disguised.body).toContain("This type of file is not allowed here.");
    const large = await upload(path, { intent: "upload" }, "file", { name: "bg.png", type: "image/png", data: await noise(120, 120) });
    expect(large.status).toBe(413);
    expect(large.body).toContain("the limit is 20 KB");
    const small = await upload(path, { intent: "upload" }, "file", { name: "bg.png", type: "image/png", data: await noise(20, 20) });
    expect(small.status, small.body.slice(0, 300)).toBe(302);
  });

  it("a course's files: any kind, each with its own limit", async () => {
    const course = firstId("select id from courses order by id limit 1");
    const path = `/dashboard/organizations/1/courses/${course}?index`;
    const image = await upload(path, { intent: "upload", title: "Too large" }, "file", {
      name: "big.png",
      type: "application/octet-stream",
      data: await noise(120, 120),
    });
    expect(image.status).toBe(413);
    expect(image.body).toContain("the limit is 20 KB");
    const document = await upload(path, { intent: "upload", title: "Too large" }, "file", {
      name: "big.pdf",
      type: "application/pdf",
      data: Buffer.concat([pdf, Buffer.alloc(120 * 1024, 32)]),
    });
    expect(document.status).toBe(413);
    expect(document.body).toContain("the limit is 100 KB");
    const html = await upload(path, { intent: "upload", title: "Page" }, "file", {
      name: "page.pdf",
      type: "application/pdf",
      data: Buffer.from("<html><script>alert(1)</script></html>"),
    });
    expect(html.status).toBe(415);
  });
});
