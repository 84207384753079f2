import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Response } from "express";
import { describe, expect, it } from "vitest";
import { keptBody, KeptPages, sendKeptBody } from "../../server/kept-body";

/** A kept page sent through a real HTTP server, as a browser receives it. */
async function served(body: Buffer, renderedWith: string, replyNonce: string) {
  const kept = keptBody(body, renderedWith);
  const server = http.createServer((_req, res) => {
    res.statusCode = 200;
    sendKeptBody(res as unknown as Response, kept, replyNonce);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<{ length: string | undefined; text: string }>((resolve, reject) =>
      http
        .get({ host: "127.0.0.1", port, path: "/" }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ length: res.headers["content-length"], text: Buffer.concat(chunks).toString("utf8") }));
        })
        .on("error", reject),
    );
  } finally {
    server.close();
  }
}

describe("a kept page", () => {
  it("is sent with the reply's nonce everywhere the rendered one stood, and its exact length in bytes", async () => {
    const old = "b2xkK25vbmNlLz09Ww==";
    const page = `<html><head><script nonce="${old}">go()</script></head><body>▶ Café — ${old}<script>{"cspNonce":"${old}"}</script></body></html>`;
    const fresh = "bmV3L25vbmNlKz0=";
    const { length, text } = await served(Buffer.from(page), old, fresh);
    expect(text).toBe(page.split(old).join(fresh));
    expect(Number(length)).toBe(Buffer.byteLength(text));
  });

  it("without the nonce in it is sent as it is", async () => {
    const { text } = await served(Buffer.from("<p>plain ✓</p>"), "absent", "other");
    expect(text).toBe("<p>plain ✓</p>");
  });
});

describe("kept pages", () => {
  const entry = (bytes: number) => ({ page: keptBody(Buffer.alloc(bytes, "a"), "n") });

  it("stay within their bytes, the least recently used leaving first", () => {
    const pages = new KeptPages<ReturnType<typeof entry>>(1_000);
    pages.set("a", entry(200));
    pages.set("b", entry(200));
    pages.set("c", entry(200));
    pages.get("a", { use: true });
    pages.set("d", entry(200));
    pages.set("e", entry(200));
    expect(pages.bytes).toBe(1_000);
    pages.set("f", entry(200));
    expect(pages.get("b")).toBeUndefined();
    expect(pages.get("a")).toBeDefined();
    expect(pages.bytes).toBe(1_000);
    expect(pages.fits(250)).toBe(true);
    expect(pages.fits(251)).toBe(false);
    pages.set("a", entry(100));
    expect(pages.bytes).toBe(900);
    pages.forget("a");
    pages.clear();
    expect([pages.size, pages.bytes]).toEqual([0, 0]);
  });
});
