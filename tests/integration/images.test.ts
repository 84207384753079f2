import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { insertSession } from "../helpers/sessions";

/** The image provider (docs/product.md §7 "Images are served through an image provider under a bucket path, webp at 2x density"). */
let server: InProcessServer;
let admin: string;
const ORG = "nordlys.localhost";
const SECRET_KEY = "an-image-provider-test-key-of-at-least-32-characters";
beforeAll(async () => {
  server = await startInProcess({ env: { SECRET_KEY } });
  admin = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
});
afterAll(() => server?.stop());

/** The address the server signs, computed here from the shared key (no page links to it yet). */
const signed = (organizationId: number, fileId: number, bucket: string) =>
  `/images/${bucket}/${fileId}/${crypto.createHmac("sha256", SECRET_KEY).update(`image:${organizationId}:${fileId}:${bucket}`).digest("base64url")}`;

async function upload(name: string, type: string, data: Buffer) {
  const { body, contentType } = multipart({}, { file: { name, type, data } });
  const res = await request(server.port, ORG, "/api/files", {
    method: "POST",
    headers: { Authorization: `Bearer ${admin}`, "Content-Type": contentType },
    body,
  });
  expect(res.status).toBe(201);
  return res.json().payload.id as number;
}

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#cc6633" } })
    .composite([
      {
        input: { create: { width: Math.round(width / 3), height: Math.round(height / 3), channels: 3, background: "#2255aa" } },
        left: 10,
        top: 10,
      },
    ])
    .png()
    .toBuffer();

const cacheDir = () => path.join(server.dataDir, "cache", "images", "org-2");

describe("the image provider", () => {
  let id: number;
  beforeAll(async () => {
    id = await upload("hero.png", "image/png", await photo(1200, 800));
  });

  it("answers a 16:9 WebP at twice the asked width, cached on disk and for a year", async () => {
    const res = await request(server.port, ORG, `${signed(2, id, "cover")}?w=320`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/webp");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const meta = await sharp(res.raw).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 640, 360]);

    const cached = fs.readdirSync(cacheDir()).filter((f) => f.startsWith(`${id}-`) && f.endsWith("-cover-320.webp"));
    expect(cached).toHaveLength(1);
    const before = fs.statSync(path.join(cacheDir(), cached[0])).mtimeMs;
    const again = await request(server.port, ORG, `${signed(2, id, "cover")}?w=320`);
    expect(again.raw.equals(res.raw)).toBe(true);
    expect(fs.statSync(path.join(cacheDir(), cached[0])).mtimeMs).toBe(before);
    expect(fs.readdirSync(cacheDir()).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("keeps each bucket's shape and never enlarges", async () => {
    const square = await request(server.port, ORG, `${signed(2, id, "square")}?w=64`);
    expect(await sharp(square.raw).metadata()).toMatchObject({ format: "webp", width: 128, height: 128 });
    const fit = await request(server.port, ORG, `${signed(2, id, "fit")}?w=240`);
    expect(await sharp(fit.raw).metadata()).toMatchObject({ width: 480, height: 320 });
    const huge = await request(server.port, ORG, `${signed(2, id, "cover")}?w=1920`);
    const meta = await sharp(huge.raw).metadata();
    expect(meta.width).toBeLessThanOrEqual(1200);
    expect(meta.height).toBeLessThanOrEqual(800);
  });

  it("renders the same image once when many ask at the same moment", async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => request(server.port, ORG, `${signed(2, id, "cover")}?w=480`)));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(replies.map((r) => r.raw.toString("base64"))).size).toBe(1);
  });

  it("refuses widths outside the bucket's list (no unbounded resizing)", async () => {
    for (const w of ["333", "0", "-320", "100000", "320.5", "abc", ""]) {
      const res = await request(server.port, ORG, `${signed(2, id, "cover")}?w=${w}`);
      expect(res.status, `w=${w}`).toBe(400);
    }
    expect(fs.readdirSync(cacheDir()).some((f) => f.includes("-333."))).toBe(false);
  });

  it("refuses a wrong signature, another bucket's signature, another organization and unknown buckets", async () => {
    const good = signed(2, id, "cover");
    expect((await request(server.port, ORG, `${good.slice(0, -2)}AA?w=320`)).status).toBe(404);
    expect((await request(server.port, ORG, `${signed(2, id, "square").replace("/square/", "/cover/")}?w=320`)).status).toBe(404);
    expect((await request(server.port, "acme.localhost", `${good}?w=320`)).status).toBe(404);
    expect((await request(server.port, ORG, `${signed(2, id, "poster")}?w=320`)).status).toBe(404);
  });

  it("serves only images, and stops serving a deleted one even when it is cached", async () => {
    const pdf = await upload("notes.pdf", "application/pdf", Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"));
    expect((await request(server.port, ORG, `${signed(2, pdf, "cover")}?w=320`)).status).toBe(404);

    const doomed = await upload("doomed.png", "image/png", await photo(400, 300));
    expect((await request(server.port, ORG, `${signed(2, doomed, "cover")}?w=160`)).status).toBe(200);
    const removed = await request(server.port, ORG, `/api/files/${doomed}`, {
      method: "DELETE",
      headers: { Authorization: `Bearer ${admin}` },
    });
    expect(removed.status).toBe(200);
    expect((await request(server.port, ORG, `${signed(2, doomed, "cover")}?w=160`)).status).toBe(404);
  });
});
