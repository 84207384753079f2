import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, HTTPRequest } from "puppeteer";

/**
 * HTML → PDF (or PNG) through Debian's Chromium, as a sandbox (docs/decisions/015-certificates.md): one
 * browser is kept warm (started at the first render, replaced after `rendersPerBrowser` renders, after a
 * crash, or when idle for `idleMs`), and each render gets a fresh, isolated browser context whose page runs
 * with JavaScript off; every request it makes is refused except `data:` URIs (the renderer's callers embed
 * images and fonts that way), so no `file://`, no internal address, no redirect; all other traffic is also
 * pointed at a dead proxy in case interception were bypassed. A render that takes longer than the timeout
 * (≤ 10 s) is stopped and its context closed (the browser too, if even that hangs); at most `concurrency`
 * pages are drawn at a time, at most `maxQueue` renders wait their turn, and any more are refused at once.
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
  /** Pages drawn at a time in the one browser (default 1); the rest wait their turn. */
  concurrency?: number;
  /** Per render, at most 10 000 ms, counted from the moment its turn comes (a cold start included). */
  timeoutMs?: number;
  /** Where each browser's throw-away Chromium profile is made (default: the system's temporary folder). */
  profileRoot?: string;
  /** Renders waiting for a turn beyond which a new one is refused at once (default 32). */
  maxQueue?: number;
  /** Renders one browser draws before it is replaced by a fresh one (default 200). */
  rendersPerBrowser?: number;
  /** A browser with nothing to draw for this long is closed (default 60 000 ms); the next render starts one. */
  idleMs?: number;
  /** How long a browser may take to start (default 30 000 ms). */
  launchTimeoutMs?: number;
}

export interface PageBox {
  /** CSS page size, e.g. "A4 landscape"; the HTML's own @page rule should agree. */
  widthMm: number;
  heightMm: number;
}

export const MAX_RENDER_MS = 10_000;

/** Every renders waiting for a turn already: a new one is refused at once rather than kept for minutes. */
export class RendererBusyError extends Error {
  constructor(waiting: number) {
    super(`The renderer has ${waiting} renders waiting already; try again in a moment.`);
    this.name = "RendererBusyError";
  }
}

const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  // Chromium 156 opens two hidden address-bar pages, with a renderer of their own, in every new window (a
  // context is one): half the browser's CPU for a context with one page.
  "--disable-features=Translate,MediaRouter,OptimizationHints,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
  // Belt and braces: if a request ever got past interception it would meet a closed port.
  "--proxy-server=127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
];

/** One launched Chromium: its process, its profile folder, how many renders it has drawn and draws now. */
interface Warm {
  browser: Promise<Browser>;
  profile: string;
  rendered: number;
  drawing: number;
  retired: boolean;
}

export class PdfRenderer {
  readonly executablePath: string;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly profileRoot: string;
  readonly maxQueue: number;
  readonly rendersPerBrowser: number;
  readonly idleMs: number;
  readonly launchTimeoutMs: number;
  #running = 0;
  readonly #queue: Array<() => void> = [];
  /** Requests the sandbox refused, most recent last (for tests and logs). */
  readonly blocked: string[] = [];
  /** Most renders seen drawing at once (for tests and the bench). */
  peak = 0;
  /** Browsers started so far (for tests and the bench). */
  launches = 0;
  #warm: Warm | null = null;
  #idleTimer: NodeJS.Timeout | undefined;
  /** Browsers being closed (replaced, crashed, idle, or given up on). */
  readonly #cleanups = new Set<Promise<unknown>>();

  constructor(options: RendererOptions) {
    this.executablePath = options.executablePath;
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    this.timeoutMs = Math.min(MAX_RENDER_MS, Math.max(100, options.timeoutMs ?? MAX_RENDER_MS));
    this.profileRoot = options.profileRoot ?? os.tmpdir();
    this.maxQueue = Math.max(0, Math.floor(options.maxQueue ?? 32));
    this.rendersPerBrowser = Math.max(1, Math.floor(options.rendersPerBrowser ?? 200));
    this.idleMs = Math.max(10, options.idleMs ?? 60_000);
    this.launchTimeoutMs = Math.max(1_000, options.launchTimeoutMs ?? 30_000);
  }

  /** Resolves once every browser this renderer let go of is closed and its profile removed. */
  async drain() {
    while (this.#cleanups.size) await Promise.allSettled([...this.#cleanups]);
  }

  /** Closes the warm browser (the server stopping); a render asked for afterwards starts a new one. */
  async close() {
    clearTimeout(this.#idleTimer);
    if (this.#warm) this.#retire(this.#warm);
    await this.drain();
  }

  /** Whether a browser is running now (for tests). */
  get warm() {
    return this.#warm !== null;
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
    if (waited && this.#queue.length >= this.maxQueue) throw new RendererBusyError(this.#queue.length);
    await this.#acquire();
    clearTimeout(this.#idleTimer);
    try {
      return await this.#once(html, box, kind, waited);
    } finally {
      this.#release();
      if (this.#running === 0 && this.#warm) {
        const warm = this.#warm;
        this.#idleTimer = setTimeout(() => this.#warm === warm && this.#running === 0 && this.#retire(warm), this.idleMs);
        this.#idleTimer.unref();
      }
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

  /** The browser to draw in: the warm one, or a new one when there is none, it died, or it has drawn enough. */
  #browserNow(): Warm {
    const current = this.#warm;
    if (current && !current.retired && current.rendered < this.rendersPerBrowser) return current;
    if (current) this.#retire(current);
    fs.mkdirSync(this.profileRoot, { recursive: true });
    const profile = fs.mkdtempSync(path.join(this.profileRoot, "lectern-render-"));
    liveProfiles.add(profile);
    this.launches++;
    const warm: Warm = { browser: this.#launch(profile), profile, rendered: 0, drawing: 0, retired: false };
    this.#warm = warm;
    warm.browser.then(
      (browser) => browser.once("disconnected", () => this.#retire(warm)), // a crash: the next render starts another
      () => this.#retire(warm),
    );
    return warm;
  }

  async #launch(profile: string): Promise<Browser> {
    const { default: puppeteer } = await import("puppeteer");
    try {
      return await puppeteer.launch({
        executablePath: this.executablePath,
        headless: true,
        timeout: this.launchTimeoutMs,
        // The server stops its own way (server/index.ts) and closes the browser then; puppeteer must not exit the process.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        args: [...LAUNCH_ARGS, `--user-data-dir=${profile}`],
      });
    } catch (error) {
      throw new RendererUnavailableError(`Chromium could not be started (${this.executablePath}): ${String(error).split("\n")[0]}`);
    }
  }

  /** No new render goes to this browser; it is closed once its renders have ended, and its profile removed. */
  #retire(warm: Warm) {
    if (this.#warm === warm) this.#warm = null;
    if (warm.retired) return;
    warm.retired = true;
    this.#closeWhenDone(warm);
  }

  #closeWhenDone(warm: Warm) {
    if (warm.drawing > 0) return; // the last render to end closes it
    const cleanup = warm.browser.then(closeHard, () => {}).finally(() => removeQuietly(warm.profile));
    this.#cleanups.add(cleanup);
    void cleanup.finally(() => this.#cleanups.delete(cleanup));
  }

  async #once(html: string, box: PageBox, kind: "pdf" | "png", waited: boolean): Promise<Buffer> {
    const warm = this.#browserNow();
    warm.drawing++;
    warm.rendered++;
    let context: BrowserContext | null = null;
    let timer: NodeJS.Timeout | undefined;
    let stage: RenderTimeoutCircumstances["stage"] = "starting";
    let busy = waited || this.#othersAround();
    let timedOut = false;
    const timeout = () => new RenderTimeoutError(this.timeoutMs, { stage, busy: busy || this.#othersAround() });
    const work = (async () => {
      const browser = await warm.browser;
      if (timedOut) throw timeout();
      // A fresh, isolated context per certificate: no cookie, cache or storage survives from one to the next.
      context = await browser.createBrowserContext();
      if (timedOut) {
        // The clean-up below ran while the context was being made: it is closed here instead.
        await context.close().catch(() => {});
        throw timeout();
      }
      const page = await context.newPage();
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
      await page.setViewport({ width: pxWidth, height: pxHeight, deviceScaleFactor: 1 });
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
      timer = setTimeout(() => {
        timedOut = true;
        reject(timeout());
      }, this.timeoutMs);
    });
    try {
      return await Promise.race([work, deadline]);
    } catch (error) {
      if ((error as Error)?.name === "TimeoutError") throw timeout();
      throw error;
    } finally {
      clearTimeout(timer);
      work.catch(() => {}); // its failure after a timeout is already reported
      // A page that ran out of time may still be drawing: its context goes, and if even that hangs, the browser.
      // A browser still starting is kept: it serves the renders after this one.
      const leftover = context as BrowserContext | null;
      if (leftover && !(await closeWithin(leftover, 2_000))) this.#retire(warm);
      warm.drawing--;
      if (warm.retired) this.#closeWhenDone(warm);
    }
  }
}

/** Closes a browser context, saying whether it closed within `ms`. */
async function closeWithin(context: BrowserContext, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    context.close().then(
      () => true,
      () => !context.browser().connected,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
  ]);
  clearTimeout(timer);
  return closed;
}

/** Profiles of browsers running; a process that stops with one open (a server shutting down) removes them. */
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
      // A helper of the browser that was in the middle of making the folder when its group was killed (closeHard)
      // may still finish that one call: look again a moment later.
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (fs.existsSync(profile)) continue;
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
  // Chromium's helpers (zygote, GPU and utility processes) may outlive the browser by a moment, and one of them
  // made the profile's folder again after it was removed (seen on a busy machine: an empty folder left behind).
  // Puppeteer starts the browser as the leader of a process group of its own: the whole group goes.
  if (child?.pid)
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group is gone already
    }
}
