import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp";
import { certificateHtml } from "../../app/models/certificate-html.server";
import { DEFAULT_LAYOUT } from "../../app/models/certificate-templates.server";
import fs from "node:fs";
import { PdfRenderer, RendererBusyError, RendererUnavailableError, RenderTimeoutError } from "../../server/pdf-renderer";
import { pdfText } from "../helpers/pdf";

/**
 * The certificate renderer as a sandbox (docs/security.md "certificate template reaching file://, internal
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

const page = (body: string, head = "") =>
  `<!doctype html><html><head><meta charset="utf-8">${head}</head><body><p>VISIBLE</p>${body}</body></html>`;

// Chromium profiles go in a folder of this file's, removed when it ends (a browser given up on may still be writing).
const profileRoot = tempDir("lectern-profiles-");

describe("the certificate renderer", () => {
  const renderer = new PdfRenderer({
    executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    concurrency: 1,
    timeoutMs: 10_000,
    profileRoot,
  });
  afterAll(() => renderer.close());
  /**
   * One page at a time and one more waiting: the crash test (its browsers found by their profiles, in a
   * folder of its own) and then the queue's bound, on the browser the crash test left warm.
   */
  const crashRoot = tempDir("lectern-crash-");
  const bounded = new PdfRenderer({ executablePath: renderer.executablePath, concurrency: 1, maxQueue: 1, profileRoot: crashRoot });
  afterAll(() => bounded.close());

  it("runs no JavaScript", async () => {
    const text = pdfText(
      await renderer.pdf(
        page(`<script>document.body.innerHTML = "<p>SCRIPT RAN</p>"</script><img src="x" onerror="document.body.append('ONERROR RAN')">`),
        A4,
      ),
    );
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
      layout: {
        ...DEFAULT_LAYOUT,
        showQr: false,
        blocks: [
          {
            text: `<img src="http://127.0.0.1:${port}/block"> {learner_name}`,
            x: 5,
            y: 10,
            width: 90,
            size: 14,
            align: "left",
            bold: false,
            color: "#000000",
          },
        ],
      },
      values: {
        learner_name: `<script>alert(1)</script>Zoë`,
        course_title: "C",
        completion_date: "d",
        score: "–",
        organization_name: "o",
        certificate_id: "i",
        verification_url: "u",
        expiry_date: "",
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

  it("stops a render past its time limit, and the next render is drawn", async () => {
    const quick = new PdfRenderer({ executablePath: renderer.executablePath, timeoutMs: 100, profileRoot });
    try {
      await expect(quick.pdf(page(""), A4)).rejects.toBeInstanceOf(RenderTimeoutError);
      // …and nothing is left holding its slot.
      await expect(renderer.pdf(page(""), A4)).resolves.toBeInstanceOf(Buffer);
    } finally {
      await quick.close(); // the browser it started is closed and its profile removed
    }
    expect(quick.warm).toBe(false);
  });

  it("keeps one browser warm, draws at most the configured number of pages at once, and replaces it after N renders", async () => {
    const one = new PdfRenderer({ executablePath: renderer.executablePath, concurrency: 2, rendersPerBrowser: 4, profileRoot });
    try {
      const pdfs = await Promise.all([1, 2, 3].map((n) => one.pdf(page(`<p>N${n}</p>`), A4)));
      expect(pdfs.map((p, i) => pdfText(p).includes(`N${i + 1}`))).toEqual([true, true, true]);
      expect(one.peak).toBe(2);
      expect(one.launches).toBe(1); // three certificates, one browser
      await one.pdf(page("<p>N4</p>"), A4);
      expect(one.launches).toBe(1);
      expect(pdfText(await one.pdf(page("<p>N5</p>"), A4))).toContain("N5"); // the fifth goes to a fresh browser
      expect(one.launches).toBe(2);
      await one.drain();
      expect(fs.readdirSync(profileRoot).filter((f) => f.startsWith("lectern-render-")).length).toBeLessThanOrEqual(2); // the first browser's profile is gone
    } finally {
      await one.close();
    }
  });

  it("starts a new browser after a crash, and closes an idle one", async () => {
    const idle = new PdfRenderer({ executablePath: renderer.executablePath, idleMs: 300, profileRoot });
    try {
      await idle.pdf(page(""), A4);
      expect(idle.warm).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(idle.warm).toBe(false); // nothing to draw for longer than idleMs
      await idle.drain();
      await idle.pdf(page(""), A4);
      expect(idle.launches).toBe(2);
    } finally {
      await idle.close();
    }
    // Chromium dies under a warm renderer: the next render notices and draws in a new one.
    await bounded.pdf(page(""), A4);
    const launched = bounded.launches;
    const pids = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
    const chromium = pids.filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`--user-data-dir=${crashRoot}`);
      } catch {
        return false;
      }
    });
    expect(chromium.length).toBeGreaterThan(0);
    for (const pid of chromium) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch (error) {
        // A helper process gone with the browser killed before it.
        if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pdfText(await bounded.pdf(page("<p>AFTER</p>"), A4))).toContain("AFTER");
    expect(bounded.launches).toBe(launched + 1);
  });

  it("refuses at once a render beyond the queue's bound, rather than keeping it for minutes", async () => {
    const first = bounded.pdf(page("<p>1</p>"), A4);
    const second = bounded.pdf(page("<p>2</p>"), A4);
    await expect(bounded.pdf(page("<p>3</p>"), A4)).rejects.toBeInstanceOf(RendererBusyError);
    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
  });

  it("says clearly when Chromium is missing", async () => {
    const missing = new PdfRenderer({ executablePath: "/nowhere/chromium", profileRoot });
    const error = await missing.pdf(page(""), A4).catch((e) => e);
    expect(error).toBeInstanceOf(RendererUnavailableError);
    expect(String(error.message)).toMatch(/Chromium was not found at \/nowhere\/chromium/);
  });
});
