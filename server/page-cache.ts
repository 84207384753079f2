import type { NextFunction, Request, Response } from "express";
import type { Organization } from "../db/platform";
import type { TenantDb } from "../db/open";
import { databaseFileState } from "../db/file-state";
import { preparedOnce } from "../db/prepared";
import { keptBody, KeptPages, sendKeptBody, type KeptBody } from "./kept-body";

/**
 * Visitors' browsing pages kept, rendered (docs/decisions/026-visitor-page-cache.md).
 *
 * A visitor who is not signed in sees the same home, categories and carousels as every other visitor of
 * that organization with the same language and theme. Such a page is kept, as HTML, while nothing it
 * shows has changed: the organization's record (the directory hands out a new object after any change),
 * the tenant's `content_version` (moved by triggers on every content table, migration 0018, whichever
 * process writes), and for at most a minute (for anything that depends on the clock). A kept page is
 * sent with the request's own CSP nonce, and with the headers Remix gave it; anything that sets a cookie,
 * is not a 200, or comes with a session, a flash message, or an Authorization header is never kept.
 *
 * A kept page whose database files are unchanged since its version was read is served before the
 * organization's database is even opened (`serveUnchanged`, called by tenancy): visitors of a thousand
 * organizations then need no open handle each (docs/decisions/028-memory-and-the-pool.md).
 */

/** `/`, `/categories`, `/categories/{id}`, `/carousels`, `/carousels/{id}`. */
const PAGES = /^\/(?:(?:categories|carousels)(?:\/\d+)?\/?)?$/;
/** Cookies that only choose how a page looks; any other cookie means a person we do not serve kept pages to. */
const PREFERENCE_COOKIES = new Set(["lng", "theme"]);
const TTL_MS = 60_000;
const MAX_PAGE_BYTES = 1024 * 1024;
/** Headers that belong to one response, or that compression sets again. */
const NOT_KEPT = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "set-cookie",
  "x-request-id",
  "x-page-cache",
  "date",
  "etag",
]);

interface Kept {
  organization: Organization;
  version: number;
  /**
   * The database's file state taken just before `version` was read, when it could be trusted
   * (db/file-state.ts): while the files still show it, the page is served without opening the database.
   */
  fileState: string | null;
  storedAt: number;
  headers: Array<[string, number | string | string[]]>;
  /** The page's bytes, and where the nonce of the response it was rendered for stands in them. */
  page: KeptBody;
}

function contentVersion(db: TenantDb): number | null {
  const version = preparedOnce(db, "pageCache.contentVersion", () =>
    db.$client.prepare("select version from content_version where id = 1").pluck(),
  ).get();
  return typeof version === "number" ? version : null;
}

function onlyPreferences(cookieHeader: string) {
  if (!cookieHeader) return true;
  for (const pair of cookieHeader.split(";")) {
    const name = pair.split("=", 1)[0].trim();
    if (name && !PREFERENCE_COOKIES.has(name)) return false;
  }
  return true;
}

export class VisitorPageCache {
  readonly #pages: KeptPages<Kept>;
  hits = 0;
  misses = 0;

  /** `databaseFile`: where an organization's database lives (for its file state). */
  constructor(
    readonly maxBytes: number,
    readonly databaseFile: (organizationId: number) => string,
  ) {
    this.#pages = new KeptPages(maxBytes);
  }

  /** A kept page still stands for this organization's record and is within its minute. */
  #current(kept: Kept | undefined, organization: Organization): kept is Kept {
    return kept !== undefined && kept.organization === organization && Date.now() - kept.storedAt < TTL_MS;
  }

  /** Whether a request is one a kept page may answer, and its key. */
  #keyOf(req: Request, organization: Organization): string | null {
    if (this.maxBytes <= 0 || req.method !== "GET" || !PAGES.test(req.path)) return null;
    // Remix's own data requests (`?_data`, `?index`) and anything signed in go to Remix as they are.
    if (req.url.includes("_data=") || req.headers.authorization) return null;
    const cookie = req.headers.cookie ?? "";
    if (!onlyPreferences(cookie)) return null;
    return [organization.id, req.hostname, req.protocol, req.originalUrl, cookie, req.headers["accept-language"] ?? ""].join("\n");
  }

  #send(res: Response, key: string, kept: Kept, nonce: string) {
    this.hits++;
    this.#pages.get(key, { use: true });
    for (const [name, value] of kept.headers) res.setHeader(name, value);
    res.setHeader("X-Page-Cache", "hit");
    res.status(200);
    sendKeptBody(res, kept.page, nonce);
  }

  /**
   * Before the organization's database is opened: answers with a kept page when its files show the same
   * state as when the page's version was read. Returns whether it answered.
   */
  serveUnchanged(req: Request, res: Response, organization: Organization): boolean {
    const key = this.#keyOf(req, organization);
    if (key === null) return false;
    const kept = this.#pages.get(key);
    const nonce = res.locals.cspNonce as string | undefined;
    if (!nonce || !this.#current(kept, organization) || !kept.fileState) return false;
    if (databaseFileState(this.databaseFile(organization.id)) !== kept.fileState) return false;
    this.#send(res, key, kept, nonce);
    return true;
  }

  get size() {
    return this.#pages.size;
  }

  get bytes() {
    return this.#pages.bytes;
  }

  clear() {
    this.#pages.clear();
  }

  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      const tenant = res.locals.tenant as { organization: Organization | null; db: TenantDb | null } | undefined;
      const nonce = res.locals.cspNonce as string | undefined;
      if (!tenant?.organization || !tenant.db || !nonce) return next();
      const organization = tenant.organization;
      const key = this.#keyOf(req, organization);
      if (key === null) return next();

      // The files' state first, then the version it stands for (db/file-state.ts).
      const fileState = databaseFileState(this.databaseFile(organization.id));
      const version = contentVersion(tenant.db);
      if (version === null) return next();
      const kept = this.#pages.get(key);
      if (this.#current(kept, organization) && kept.version === version) {
        kept.fileState = fileState;
        this.#send(res, key, kept, nonce);
        return;
      }
      if (kept) this.#pages.forget(key);
      this.misses++;
      // Headers set before this point (security headers with their nonce, the request id) are the request's own.
      const before = new Set(Object.keys(res.getHeaders()));
      this.#capture(res, (status, body) => {
        if (status !== 200 || res.getHeader("set-cookie") !== undefined) return;
        if (!String(res.getHeader("content-type") ?? "").startsWith("text/html")) return;
        if (body.length > MAX_PAGE_BYTES || !this.#pages.fits(body.length)) return;
        const headers = Object.entries(res.getHeaders())
          .filter(([name, value]) => value !== undefined && !NOT_KEPT.has(name) && !before.has(name))
          .map(([name, value]) => [name, value] as [string, number | string | string[]]);
        this.#pages.set(key, { organization, version, fileState, storedAt: Date.now(), headers, page: keptBody(body, nonce) });
      });
      res.setHeader("X-Page-Cache", "miss");
      next();
    };
  }

  /** Collects what is written to the response (under any compression) and hands it over when it ends. */
  #capture(res: Response, done: (status: number, body: Buffer) => void) {
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    const collect = (chunk: unknown, encoding?: unknown) => {
      if (overflow || chunk === undefined || chunk === null || typeof chunk === "function") return;
      const buffer = Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
          : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
      size += buffer.length;
      if (size > MAX_PAGE_BYTES) overflow = true;
      else chunks.push(Buffer.from(buffer));
    };
    const write = res.write;
    const end = res.end;
    res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Response["write"];
    res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
      collect(chunk, rest[0]);
      if (!overflow) {
        try {
          done(res.statusCode, Buffer.concat(chunks));
        } catch {
          // a page that cannot be kept is still sent
        }
      }
      return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
    } as Response["end"];
  }
}
