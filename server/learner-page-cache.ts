import crypto from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import type { Request, Response } from "express";
import type { TenantDb } from "../db/open";
import type { Organization } from "../db/platform";
import { preparedOnce } from "../db/prepared";
import { keptBody, KeptPages, sendKeptBody, type KeptBody } from "./kept-body";

/**
 * Signed-in learners' home, course and leaderboard pages kept, rendered, while nothing they show has changed
 * (docs/decisions/039-learner-page-cache.md). The visitors' cache (server/page-cache.ts) answers before
 * anyone is identified; this one answers after: the session has been checked (server/viewer.ts) as for any
 * page, so a signed-out, expired or revoked session never reaches a kept page.
 *
 * A kept page stands for one session's cookies, URL and language and is served only while all of these are
 * unchanged:
 * 1. the organization's record (the directory hands out a new object after any change);
 * 2. the tenant's `content_version` rows, moved by triggers on every shared table those pages read
 *    (row 1: what visitors' pages read too, migrations 0018 and 0021; row 2: assignments, links,
 *    materials, ratings, leaderboard settings, migration 0031; row 3, the board alone: points, streaks,
 *    levels, badges and people's names, migration 0032), whichever process writes;
 * 3. the person's `user_versions` row, moved by triggers on every row of theirs those pages read
 *    (migrations 0031 and 0032): progress, completions, certificates, bookmarks, assignments, memberships,
 *    badges, watch time, their own row; tests/integration/learner-page-cache.test.ts fails when those pages
 *    read a table none covers. The board's two window widgets (others' bookmarks and watch time) are the
 *    one exception: they are counted at most once a minute whether or not the page is kept
 *    (app/models/leaderboard.server.ts `WIDGET_RECOUNT_MS`);
 * 4. a minute of age, for what a page works out from the clock (due days, the time a course opens), and
 *    at most a quarter of a signed download address's life (`ttlMs`), so a kept course page's downloads
 *    work for three quarters of it or more.
 * Both versions are read before the page is rendered, so a change during the render can only make a kept
 * page look older than it is; a page whose viewer was read while another process committed is not kept
 * (`mark`), and a page's age counts from when its versions were read. Only a 200 HTML page that sets no
 * cookie is kept, with the headers Remix gave it; each reply carries its own CSP nonce (written where the
 * nonce the page was rendered with stood).
 *
 * A page is kept the second time its key is asked for (a doorkeeper set of hashed keys, as for course
 * cards in docs/decisions/030-kept-markup.md): a page asked for once, such as one of a thousand courses
 * opened by one of many learners, is neither copied nor pushes out pages people come back to.
 */

/**
 * `/`, `/courses/{id}`, `/paths/{id}` (issue 49) and `/leaderboard`: the pages a learner opens most. Remix's data
 * requests (`?_data`) are not kept.
 */
const PAGES = /^\/(?:courses\/\d+\/?|paths\/\d+\/?|leaderboard\/?)?$/;
/** The board, which is also checked against `content_version` row 3 (what it shows of everyone: migration 0032). */
const BOARD = /^\/leaderboard\/?$/;
/** The session and the two preferences; any other cookie (a flash message, an SSO state) means no kept page. */
const KEPT_WITH_COOKIES = new Set(["lectern_session", "lng", "theme"]);
/** Learners and group admins (learners who administer a group); management roles are rendered every time. */
const ROLES = new Set(["learner", "group_admin"]);
const MAX_PAGE_BYTES = 512 * 1024;
/** Hashed keys seen once; emptied when full. */
const DOORKEEPER_SIZE = 4096;
/** Headers that belong to one response. */
const NOT_KEPT = new Set(["content-length", "content-encoding", "transfer-encoding", "set-cookie", "date", "etag", "x-request-id"]);

interface Versions {
  /** `content_version` rows 1 and 2. */
  content: number;
  /** Row 3, for the board; 0 for the other pages, which show none of it. */
  board: number;
  user: number;
}

/** The versions, and SQLite's count of commits by other connections (`PRAGMA data_version`) as they were read. */
interface VersionsRead extends Versions {
  dataVersion: number;
}

interface Kept extends Versions {
  organization: Organization;
  storedAt: number;
  headers: Array<[string, string]>;
  page: KeptBody;
}

/** What a miss hands to `keep` once the page is rendered. */
export interface PendingPage extends Versions {
  key: string;
  organization: Organization;
  nonce: string;
  /** When the versions were read: a kept page's age counts from then, not from when its render ended. */
  readAt: number;
}

function versionsOf(db: TenantDb, userId: number, board: boolean): VersionsRead | null {
  const row = preparedOnce(db, "learnerPages.versions", () =>
    db.$client.prepare(
      "select (select sum(version) from content_version where id <= 2) as content, (select version from content_version where id = 3) as board, coalesce((select version from user_versions where user_id = ?), 0) as user, (select data_version from pragma_data_version()) as dataVersion",
    ),
  ).get(userId) as { content: number | null; board: number | null; user: number; dataVersion: number } | undefined;
  return row && typeof row.content === "number" && typeof row.board === "number"
    ? { content: row.content, board: board ? row.board : 0, user: row.user, dataVersion: row.dataVersion }
    : null;
}

function dataVersionOf(db: TenantDb): number {
  return preparedOnce(db, "learnerPages.dataVersion", () =>
    db.$client.prepare("select data_version from pragma_data_version()").pluck(),
  ).get() as number;
}

function onlyKeptCookies(cookieHeader: string) {
  for (const pair of cookieHeader.split(";")) {
    const name = pair.split("=", 1)[0].trim();
    if (name && !KEPT_WITH_COOKIES.has(name)) return false;
  }
  return true;
}

export class LearnerPageCache {
  readonly #pages: KeptPages<Kept>;
  readonly #seen = new Set<string>();

  /** `downloadTtlSeconds`: how long the signed download addresses a course page carries work (config). */
  constructor(
    readonly maxBytes: number,
    downloadTtlSeconds = 900,
  ) {
    this.ttlMs = Math.min(60_000, downloadTtlSeconds * 250);
    this.#pages = new KeptPages(maxBytes);
  }

  readonly ttlMs: number;

  /**
   * Before the viewer is worked out (server/documents.ts): the count of commits other connections have made
   * to the organization's database. The viewer (memberships, role) is read in statements of its own before
   * `lookup` reads the versions; if another process committed in between, the viewer may be older than the
   * versions, and the page rendered with it is not kept. Null when this request's page is not one to keep.
   */
  mark(req: Request, res: Response): number | null {
    if (this.maxBytes <= 0 || req.method !== "GET" || !PAGES.test(req.path) || res.locals.viewer) return null;
    const db = (res.locals.tenant as { db: TenantDb | null } | undefined)?.db;
    return db ? dataVersionOf(db) : null;
  }

  /**
   * After the viewer is known, before Remix: answers with a kept page (returns "sent"), or returns what
   * `keep` needs to keep this request's page, or null when this request's page is not one to keep.
   */
  lookup(req: Request, res: Response, context: AppLoadContext, mark: number | null): "sent" | PendingPage | null {
    if (this.maxBytes <= 0 || req.method !== "GET" || !PAGES.test(req.path) || req.url.includes("_data=")) return null;
    const { organization, db, viewer, cspNonce } = context;
    if (!organization || !db || !cspNonce || req.headers.authorization) return null;
    const { session, person, role } = viewer;
    if (viewer.via !== "cookie" || !session || session.twoFactorPending || !person || !role || !ROLES.has(role)) return null;
    const cookie = req.headers.cookie ?? "";
    if (!onlyKeptCookies(cookie)) return null;
    const versions = versionsOf(db, person.id, BOARD.test(req.path));
    if (!versions) return null;
    const key = [
      organization.id,
      session.id,
      person.id,
      viewer.language,
      req.hostname,
      req.protocol,
      req.originalUrl,
      cookie,
      req.headers["accept-language"] ?? "",
    ].join("\n");
    const kept = this.#pages.get(key);
    if (
      kept &&
      kept.organization === organization &&
      kept.content === versions.content &&
      kept.board === versions.board &&
      kept.user === versions.user &&
      Date.now() - kept.storedAt < this.ttlMs
    ) {
      this.#pages.get(key, { use: true });
      for (const [name, value] of kept.headers) res.setHeader(name, value);
      res.setHeader("X-Page-Cache", "hit");
      res.status(200);
      sendKeptBody(res, kept.page, cspNonce);
      return "sent";
    }
    res.setHeader("X-Page-Cache", "miss");
    if (kept) this.#pages.forget(key);
    // Another process committed while the viewer was read: render, but keep nothing.
    if (mark === null || mark !== versions.dataVersion) return null;
    // Only a page asked for before is worth keeping (a page kept before, now changed, was).
    if (!kept) {
      const hash = crypto.createHash("sha1").update(key).digest("base64");
      if (!this.#seen.has(hash)) {
        if (this.#seen.size >= DOORKEEPER_SIZE) this.#seen.clear();
        this.#seen.add(hash);
        return null;
      }
      this.#seen.delete(hash);
    }
    const { content, board, user } = versions;
    return { key, organization, nonce: cspNonce, content, board, user, readAt: Date.now() };
  }

  /** Keeps a page Remix rendered for a request `lookup` returned `pending` for, if it is one to keep. */
  keep(pending: PendingPage, status: number, headers: Headers, body: Buffer) {
    if (status !== 200 || headers.has("set-cookie") || !(headers.get("content-type") ?? "").startsWith("text/html")) return;
    if (body.length > MAX_PAGE_BYTES || !this.#pages.fits(body.length)) return;
    const kept: Array<[string, string]> = [];
    for (const [name, value] of headers.entries()) if (!NOT_KEPT.has(name)) kept.push([name, value]);
    const { key, organization, content, board, user, nonce, readAt } = pending;
    this.#pages.set(key, { organization, content, board, user, storedAt: readAt, headers: kept, page: keptBody(body, nonce) });
  }
}
