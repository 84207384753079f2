import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp";
import { certificateHtml } from "../../app/models/certificate-html.server";
import { DEFAULT_LAYOUT } from "../../app/models/certificate.server";
import { PdfRenderer, RendererUnavailableError, RenderTimeoutError } from "../../server/pdf-renderer";
import { pdfText } from "../helpers/pdf";

/**
 * The certificate renderer as a sandbox (SECURITY.md "certificate template reaching file://, internal
 * addresses or redirects"): pages that try to run script, read local files, reach an internal address,
 * follow a redirect or a meta refresh get nothing, and the internal server sees no request at all.
 */
const A4 = { widthMm: 297, heightMm: 210 };
let internal: http.Server;
let port = 0;
const hits: string[] = [];

beforeAll(async () => {
  internal = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/redirect") {
      res.writeHead(302, { Location: `http://127.0.0.1:${port}/secret` });
      return res.end();
    }
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end("<p>INTERNAL SECRET</p>");
  });
  await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
  port = (internal.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => internal.close(() => resolve())));

const page = (body: string, head = "") => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body><p>VISIBLE</p>${body}</body></html>`;

// Chromium profiles go in a folder of this file's, removed when it ends (a browser given up on may still be writing).
const profileRoot = tempDir("lectern-profiles-");

describe("the certificate renderer", () => {
  const renderer = new PdfRenderer({ executablePath: process.env.CHROME_PATH || "/usr/bin/chromium", concurrency: 1, timeoutMs: 10_000, profileRoot });

  it("runs no JavaScript", async () => {
    const text = pdfText(await renderer.pdf(page(`<script>document.body.innerHTML = "<p>SCRIPT RAN</p>"</script><img src="x" onerror="document.body.append('ONERROR RAN')">`), A4));
    expect(text).toContain("VISIBLE");
    expect(text).not.toContain("SCRIPT RAN");
    expect(text).not.toContain("ONERROR RAN");
  });

  it("reads no local file and reaches no internal address, directly or by redirect, link, frame or refresh", async () => {
    const before = hits.length;
    const html = page(
      `<img src="file:///etc/hostname"><iframe src="file:///etc/passwd"></iframe>
       <img src="http://127.0.0.1:${port}/img"><iframe src="http://127.0.0.1:${port}/frame"></iframe>
       <img src="http://127.0.0.1:${port}/redirect"><object data="http://localhost:${port}/object"></object>
       <div style="background:url(http://127.0.0.1:${port}/css)">x</div>`,
      `<link rel="stylesheet" href="http://127.0.0.1:${port}/style.css">
       <style>@import url("http://127.0.0.1:${port}/import.css"); @font-face { font-family: X; src: url(http://127.0.0.1:${port}/font) }</style>`,
    );
    const text = pdfText(await renderer.pdf(html, A4));
    expect(text).toContain("VISIBLE");
    expect(text).not.toContain("INTERNAL SECRET");
    expect(text).not.toMatch(/root:x:0:0/);
    expect(hits.slice(before)).toEqual([]);
    // (file: from this page is refused by Chromium itself before any request is made.)
    expect(renderer.blocked.some((u) => u.includes(`127.0.0.1:${port}`))).toBe(true);
  });

  it("follows no meta refresh to an internal address", async () => {
    const before = hits.length;
    // The refused navigation is not committed: the page printed is still the certificate, and nothing was reached.
    const text = pdfText(await renderer.pdf(page("", `<meta http-equiv="refresh" content="0;url=http://127.0.0.1:${port}/refresh">`), A4));
    expect(text).toContain("VISIBLE");
    expect(text).not.toContain("INTERNAL SECRET");
    expect(hits.slice(before)).toEqual([]);
  });

  it("writes template text as text: markup in a block is shown, not obeyed", async () => {
    const html = certificateHtml({
      layout: { ...DEFAULT_LAYOUT, showQr: false, blocks: [{ text: `<img src="http://127.0.0.1:${port}/block"> {learner_name}`, x: 5, y: 10, width: 90, size: 14, align: "left", bold: false, color: "#000000" }] },
      values: {
        learner_name: `<script>alert(1)</script>Zoë`,
        course_title: "C",
        completion_date: "d",
        score: "–",
        organization_name: "o",
        certificate_id: "i",
        verification_url: "u",
      },
      backgroundUri: `data:image/png;base64,AAAA" onload="x`,
      logoUri: null,
      qr: null,
      language: "en",
    });
    const before = hits.length;
    const text = pdfText(await renderer.pdf(html, A4));
    expect(text).toContain(`<img src="http://127.0.0.1:${port}/block">`);
    expect(text).toContain("<script>alert(1)</script>Zoë");
    expect(hits.slice(before)).toEqual([]);
    expect(html).not.toContain('onload="x');
  });

  it("stops a render past its time limit", async () => {
    const quick = new PdfRenderer({ executablePath: renderer.executablePath, timeoutMs: 100, profileRoot });
    await expect(quick.pdf(page(""), A4)).rejects.toBeInstanceOf(RenderTimeoutError);
    await quick.drain(); // the browser it gave up on is closed and its profile removed
    // …and works again afterwards: nothing is left holding its slot.
    await expect(renderer.pdf(page(""), A4)).resolves.toBeInstanceOf(Buffer);
  });

  it("runs at most the configured number of browsers at once", async () => {
    const one = new PdfRenderer({ executablePath: renderer.executablePath, concurrency: 1, profileRoot });
    const pdfs = await Promise.all([1, 2, 3].map((n) => one.pdf(page(`<p>N${n}</p>`), A4)));
    expect(pdfs.map((p) => pdfText(p).includes("VISIBLE"))).toEqual([true, true, true]);
    expect(one.peak).toBe(1);
  });

  it("says clearly when Chromium is missing", async () => {
    const missing = new PdfRenderer({ executablePath: "/nowhere/chromium", profileRoot });
    const error = await missing.pdf(page(""), A4).catch((e) => e);
    expect(error).toBeInstanceOf(RendererUnavailableError);
    expect(String(error.message)).toMatch(/Chromium was not found at \/nowhere\/chromium/);
  });
});
