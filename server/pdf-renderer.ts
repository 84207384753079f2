import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, HTTPRequest } from "puppeteer";

/**
 * HTML → PDF (or PNG) through Debian's Chromium, as a sandbox (SECURITY.md "Input and content"): the
 * page runs with JavaScript off; every request it makes is refused except `data:` URIs (the renderer's
 * callers embed images and fonts that way), so no `file://`, no internal address, no redirect; all
 * other traffic is also pointed at a dead proxy in case interception were bypassed; a render that takes
 * longer than the timeout (≤ 10 s) is killed with its browser; at most `concurrency` browsers run at a
 * time and the rest wait their turn.
 */
export class RendererUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RendererUnavailableError";
  }
}

/**
 * What a render was doing when its time ran out, so that callers can say why: still `starting` its browser
 * (the page itself is not to blame) or `drawing` the page; and whether the renderer was `busy` (other renders
 * beside or behind it, or it had to wait its turn), which slows everything and blames no one page.
 */
export interface RenderTimeoutCircumstances {
  stage: "starting" | "drawing";
  busy: boolean;
}

export class RenderTimeoutError extends Error {
  readonly stage: RenderTimeoutCircumstances["stage"];
  readonly busy: boolean;
  constructor(ms: number, circumstances: RenderTimeoutCircumstances = { stage: "drawing", busy: false }) {
    super(`The render took longer than ${ms} ms and was stopped (${circumstances.stage}${circumstances.busy ? ", renderer busy" : ""}).`);
    this.name = "RenderTimeoutError";
    this.stage = circumstances.stage;
    this.busy = circumstances.busy;
  }
}

export interface RendererOptions {
  executablePath: string;
  /** Browsers at a time (default 1). */
  concurrency?: number;
  /** Per render, at most 10 000 ms. */
  timeoutMs?: number;
  /** Where each render's throw-away Chromium profile is made (default: the system's temporary folder). */
  profileRoot?: string;
}

export interface PageBox {
  /** CSS page size, e.g. "A4 landscape"; the HTML's own @page rule should agree. */
  widthMm: number;
  heightMm: number;
}

export const MAX_RENDER_MS = 10_000;

export class PdfRenderer {
  readonly executablePath: string;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly profileRoot: string;
  #running = 0;
  readonly #queue: Array<() => void> = [];
  /** Requests the sandbox refused, most recent last (for tests and logs). */
  readonly blocked: string[] = [];
  /** Most browsers seen running at once (for tests and the bench). */
  peak = 0;
  /** Clean-ups still running after a render gave up (a browser that was still starting). */
  readonly #cleanups = new Set<Promise<unknown>>();

  /** Resolves once every browser this renderer started is closed and its profile removed. */
  async drain() {
    while (this.#cleanups.size) await Promise.allSettled([...this.#cleanups]);
  }

  constructor(options: RendererOptions) {
    this.executablePath = options.executablePath;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    this.timeoutMs = Math.min(MAX_RENDER_MS, Math.max(100, options.timeoutMs ?? MAX_RENDER_MS));
    this.profileRoot = options.profileRoot ?? os.tmpdir();
  }

  /** Whether Chromium is where it is expected; a clear error otherwise. */
  check() {
    try {
      fs.accessSync(this.executablePath, fs.constants.X_OK);
    } catch {
      throw new RendererUnavailableError(
        `Chromium was not found at ${this.executablePath}: install it (apt-get install chromium) or set CHROME_PATH.`,
      );
    }
  }

  pdf(html: string, box: PageBox): Promise<Buffer> {
    return this.#render(html, box, "pdf");
  }

  png(html: string, box: PageBox): Promise<Buffer> {
    return this.#render(html, box, "png");
  }

  async #render(html: string, box: PageBox, kind: "pdf" | "png"): Promise<Buffer> {
    this.check();
    const waited = this.#running >= this.concurrency;
    await this.#acquire();
    try {
      return await this.#once(html, box, kind, waited);
    } finally {
      this.#release();
    }
  }

  /** Whether other renders run beside this one or wait behind it. */
  #othersAround() {
    return this.#running > 1 || this.#queue.length > 0;
  }

  #acquire() {
    if (this.#running < this.concurrency) {
      this.#running++;
      this.peak = Math.max(this.peak, this.#running);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) =>
      this.#queue.push(() => {
        this.#running++;
        this.peak = Math.max(this.peak, this.#running);
        resolve();
      }),
    );
  }

  #release() {
    this.#running--;
    this.#queue.shift()?.();
  }

  async #once(html: string, box: PageBox, kind: "pdf" | "png", waited: boolean): Promise<Buffer> {
    const { default: puppeteer } = await import("puppeteer");
    fs.mkdirSync(this.profileRoot, { recursive: true });
    const profile = fs.mkdtempSync(path.join(this.profileRoot, "lectern-render-"));
    liveProfiles.add(profile);
    let browser: Browser | null = null;
    let timer: NodeJS.Timeout | undefined;
    let stage: RenderTimeoutCircumstances["stage"] = "starting";
    let busy = waited || this.#othersAround();
    const timedOut = () => new RenderTimeoutError(this.timeoutMs, { stage, busy: busy || this.#othersAround() });
    const work = (async () => {
      browser = await puppeteer.launch({
        executablePath: this.executablePath,
        headless: true,
        timeout: this.timeoutMs,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--disable-extensions",
          "--disable-features=Translate,MediaRouter,OptimizationHints",
          // Belt and braces: if a request ever got past interception it would meet a closed port.
          "--proxy-server=127.0.0.1:9",
          "--proxy-bypass-list=<-loopback>",
          `--user-data-dir=${profile}`,
        ],
      });
      const page = await browser.newPage();
      await page.setJavaScriptEnabled(false);
      await page.setRequestInterception(true);
      page.on("request", (request: HTTPRequest) => {
        const url = request.url();
        if (url.startsWith("data:")) return void request.continue();
        this.blocked.push(url);
        if (this.blocked.length > 100) this.blocked.shift();
        // A navigation of the page itself (a meta refresh, a link target) is answered here with "204 No
        // Content", which Chromium does not commit: the page stays the certificate, and nothing is reached.
        // Aborting it instead would commit an error page, and printing during that swap fails.
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
          return void request.respond({ status: 204, body: "" });
        }
        void request.abort("blockedbyclient");
      });
      const pxWidth = Math.round((box.widthMm / 25.4) * 96);
      const pxHeight = Math.round((box.heightMm / 25.4) * 96);
      await page.setViewport({ width: pxWidth, height: pxHeight, deviceScaleFactor: kind === "png" ? 1 : 1 });
      stage = "drawing";
      busy ||= this.#othersAround();
      await page.setContent(html, { waitUntil: "load", timeout: this.timeoutMs });
      if (kind === "png") {
        return Buffer.from(await page.screenshot({ type: "png", clip: { x: 0, y: 0, width: pxWidth, height: pxHeight } }));
      }
      return Buffer.from(
        await page.pdf({
          width: `${box.widthMm}mm`,
          height: `${box.heightMm}mm`,
          printBackground: true,
          margin: { top: 0, right: 0, bottom: 0, left: 0 },
          timeout: this.timeoutMs,
        }),
      );
    })();
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut()), this.timeoutMs);
    });
    try {
      return await Promise.race([work, deadline]);
    } catch (error) {
      if ((error as Error)?.name === "TimeoutError") throw timedOut();
      if (!(error instanceof RenderTimeoutError) && /Failed to launch|ENOENT|spawn/.test(String(error))) {
        throw new RendererUnavailableError(`Chromium could not be started (${this.executablePath}): ${String(error).split("\n")[0]}`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
      work.catch(() => {}); // its failure after a timeout is already reported
      const removeProfile = () => removeQuietly(profile);
      if (browser) {
        await closeHard(browser);
        await removeProfile();
      } else {
        // The browser may still be starting when the deadline passes: close it once it exists, and only
        // then remove its profile (a starting Chromium would write it again). `drain()` waits for this.
        const cleanup = work.then(() => closeHard(browser), () => closeHard(browser)).finally(removeProfile);
        this.#cleanups.add(cleanup);
        void cleanup.finally(() => this.#cleanups.delete(cleanup));
      }
    }
  }
}

/** Profiles of renders under way; a process that stops mid-render (a server shutting down) removes them. */
const liveProfiles = new Set<string>();
process.once("exit", () => {
  for (const profile of liveProfiles) {
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // a child still writing; nothing more can be done as the process exits
    }
  }
});

/** Removes a profile folder; a Chromium child still flushing gets a few tries, and the exit hook has the last word. */
async function removeQuietly(profile: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
      liveProfiles.delete(profile);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    }
  }
}

async function closeHard(browser: Browser | null) {
  if (!browser) return;
  const child = browser.process();
  try {
    await Promise.race([browser.close(), new Promise((resolve) => setTimeout(resolve, 2000))]);
  } catch {
    // fall through to the kill
  }
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
  }
}
