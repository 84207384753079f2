import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { DatabaseUnavailableError, type TenantDb } from "../db/open";
import { tenantDatabaseFile } from "../db/tenant-pool";
import type { Organization } from "../db/platform";
import type { Platform } from "./platform";
import { viewerOf } from "./viewer";
import { isLanguage } from "../app/utils/i18n";
import { textsScript } from "../app/utils/i18n.server";
import { isApiPath, serveApi } from "./api";
import { isXapiPath, serveXapi } from "./xapi";
import { documents } from "./documents";
import { serveFiles } from "./files";
import { healthChecks } from "./health";
import { logger, requestLog } from "./logger";
import { VisitorPageCache } from "./page-cache";
import { LearnerPageCache } from "./learner-page-cache";
import { serveImages } from "./images";
import { serveFavicon } from "./favicon";
import { serveScormContent } from "./scorm/content";
import { clientAddress } from "./client-address";
import { magicLinkParameter, rateLimits, sameOriginPosts, wellFormedRequests } from "./protection";
import { bodyLimits } from "./body-limits";
import { sendStatusPage } from "./status-page";
import { inSequence } from "./in-sequence";
import { isBusyError } from "../db/write-lock";
import { openWasBusy, openWhenFree, sendTenantBusy, waitForTenantWrites } from "./tenant-lock";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface TenantLocals {
  organization: Organization | null;
  db: TenantDb | null;
}

/** The Express host: security headers, static files, tenancy, then Remix (docs/architecture.md "Request flow"). */
export function createApp(platform: Platform, build: ServerBuild | (() => Promise<ServerBuild>)) {
  const { config } = platform;
  const app = express();
  app.disable("x-powered-by");
  // Node's own query-string parser: nothing here reads nested `a[b]=` queries (only /images reads `w`),
  // and qs was a visible part of every /api call's profile.
  app.set("query parser", "simple");
  // A number of proxy hops, never `true`: trusting every hop would let a client pick its own address.
  app.set("trust proxy", config.TRUST_PROXY ? config.TRUST_PROXY_HOPS : false);

  // /api replies (server/api.ts) are compressed there, where worth it; everything else goes through here.
  const compress = compression();
  // What every request goes through, as one Express layer (server/in-sequence.ts).
  app.use(
    inSequence(
      healthChecks(platform),
      requestIdAndNonce,
      ...(config.LOG_REQUESTS ? [requestLog(logger)] : []),
      forwardedHeaders(config.TRUST_PROXY),
      securityHeaders(config),
      wellFormedRequests,
      (req, res, next) => (isApiPath(req.path) || isXapiPath(req.path) ? next() : compress(req, res, next)),
    ),
  );

  app.use("/build", express.static(path.join(root, "public", "build"), { immutable: true, maxAge: "1y" }));
  app.use(publicFiles(config.NODE_ENV === "development"));
  app.get("/i18n/:file", serveTexts);
  // Every host's icon, before tenancy: it needs the organization's record, never its database.
  app.use(serveFavicon(platform));

  // SCORM content hosts (<id>.<SCORM_DOMAIN>) are answered before tenancy: they are no organization's app.
  app.use(serveScormContent(platform));
  const pageCache = new VisitorPageCache(config.PAGE_CACHE_MB * 1024 * 1024, (id) => tenantDatabaseFile(platform.dataDir, id));
  // The organization's LRS, right after tenancy: its credentials, limits and CORS are its own (server/xapi.ts).
  const xapi = inSequence(waitForTenantWrites(), serveXapi(build, getLoadContext, compress));
  app.use(
    inSequence(
      tenancy(platform, pageCache),
      (req, res, next) => (isXapiPath(req.path) ? xapi(req, res, next) : next()),
      sameOriginPosts,
      bodyLimits(platform),
      rateLimits(config),
      magicLinkParameter,
      serveFiles(platform),
      serveImages(platform),
      // A write waits here, on timers, while another process holds the organization's file (decision 033).
      waitForTenantWrites(),
    ),
  );

  async function getLoadContext(req: Request, res: Response) {
    const tenant = res.locals.tenant as TenantLocals;
    const viewer = await viewerOf(req, res, platform);
    // Kept on the response so the request's log line can name who asked (server/logger.ts).
    return (res.locals.loadContext = {
      organization: tenant.organization,
      db: tenant.db,
      platform,
      cspNonce: res.locals.cspNonce as string,
      requestId: res.locals.requestId as string,
      clientIp: clientAddress(req),
      viewer,
    });
  }
  // /api: the dispatcher of the app's declared calls, in every mode; Remix never sees it (server/api.ts).
  app.use(serveApi(build, getLoadContext, compress));
  // Visitors' browsing pages, kept while nothing they show has changed.
  app.use(pageCache.middleware());
  // Signed-in learners' home and course pages, kept while nothing they show has changed (decision 039).
  const learnerPages = new LearnerPageCache(config.LEARNER_PAGE_CACHE_MB * 1024 * 1024, config.DOWNLOAD_TTL_SECONDS);
  app.all("*", documents(build, config.NODE_ENV === "development" ? "development" : "production", getLoadContext, learnerPages));

  // Anything that escapes (a platform database error, a file-system failure while opening a tenant):
  // the generic page, never Express's default handler with its stack trace.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (isBusyError(error)) return sendTenantBusy(req, res);
    logger.error({ id: res.locals.requestId, error: String(error) }, "unhandled");
    if (res.headersSent) return res.end();
    sendStatusPage(req, res, 500);
  });

  return app;
}

/**
 * Random bytes for CSP nonces, drawn from the operating system's CSPRNG in blocks rather than with one
 * call per request; every nonce is still 16 fresh random bytes, never reused.
 */
const NONCE_BYTES = 16;
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let nonceOffset = noncePool.length;

function nextNonce() {
  if (nonceOffset + NONCE_BYTES > noncePool.length) {
    crypto.randomFillSync(noncePool);
    nonceOffset = 0;
  }
  const nonce = noncePool.toString("base64", nonceOffset, nonceOffset + NONCE_BYTES);
  nonceOffset += NONCE_BYTES;
  return nonce;
}

/**
 * GET /i18n/{language}-{hash}.js: a language's texts for the browser (app/utils/i18n.server.ts), kept for a
 * year under the current hash. An older hash (a page from before a restart with new texts) gets today's
 * texts, not to be kept.
 */
function serveTexts(req: Request, res: Response, next: NextFunction) {
  const match = /^([a-z]{2})-([0-9a-f]{10})\.js$/.exec(req.params.file ?? "");
  if (!match || !isLanguage(match[1])) return next();
  const script = textsScript(match[1]);
  res.setHeader("Content-Type", "text/javascript; charset=utf-8");
  res.setHeader("Cache-Control", match[2] === script.hash ? "public, max-age=31536000, immutable" : "no-store");
  res.send(script.body);
}

function requestIdAndNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.requestId = crypto.randomUUID();
  res.setHeader("X-Request-Id", res.locals.requestId);
  res.locals.cspNonce = nextNonce();
  next();
}

/**
 * The files of public/ (favicon, robots.txt, …): express.static asks the file system about every path it
 * sees, so only paths whose first segment names an entry of public/ are handed to it. In development
 * the folder may change under the server, so every path is.
 */
function publicFiles(development: boolean) {
  const dir = path.join(root, "public");
  const serve = express.static(dir, { maxAge: "1h", index: false, redirect: false });
  if (development) return serve;
  let entries: Set<string>;
  try {
    entries = new Set(fs.readdirSync(dir));
  } catch {
    entries = new Set();
  }
  return (req: Request, res: Response, next: NextFunction) => {
    const end = req.path.indexOf("/", 1);
    const first = req.path.slice(1, end === -1 ? undefined : end);
    let name = first;
    try {
      name = decodeURIComponent(first);
    } catch {
      // not a name of ours
    }
    if (!entries.has(name)) return next();
    serve(req, res, next);
  };
}

/** Reset links carry a secret in their path (kept here for the tests that import it). */
export { redactPath } from "./logger";

/**
 * Forwarded headers are the client's word unless a proxy we trust set them (docs/security.md "Tenant
 * isolation"). Untrusted, they are removed so nothing downstream can read them by mistake.
 */
function forwardedHeaders(trusted: boolean) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!trusted) {
      // Only when present: deleting from the headers object costs even when the header is absent.
      const headers = req.headers;
      if (headers["x-forwarded-host"] !== undefined) delete headers["x-forwarded-host"];
      if (headers["x-forwarded-proto"] !== undefined) delete headers["x-forwarded-proto"];
      if (headers["x-forwarded-for"] !== undefined) delete headers["x-forwarded-for"];
      if (headers.forwarded !== undefined) delete headers.forwarded;
    }
    next();
  };
}

/**
 * Helmet's headers, worked out once: helmet runs at start on a stand-in response whose nonce is a marker,
 * and each request then gets the same headers with its own nonce put in place of the marker.
 */
function securityHeaders(config: Platform["config"]) {
  const marker = "LECTERN_NONCE_MARKER";
  const recorded: Array<[string, string]> = [];
  const removed: string[] = [];
  const standIn = {
    locals: { cspNonce: marker },
    setHeader: (name: string, value: unknown) => void recorded.push([name, String(value)]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let ran = false;
  helmetMiddleware(config)({} as Request, standIn as unknown as Response, () => {
    ran = true;
  });
  if (!ran) throw new Error("security headers: helmet did not finish synchronously");
  const headers = recorded.map(([name, value]) => [name, value.split(marker)] as const);
  return (_req: Request, res: Response, next: NextFunction) => {
    const nonce = res.locals.cspNonce as string;
    for (const name of removed) res.removeHeader(name);
    for (const [name, parts] of headers) res.setHeader(name, parts.length === 1 ? parts[0] : parts.join(nonce));
    next();
  };
}

/** The player frames SCORM content from `<id>.<SCORM_DOMAIN>` on any port (docs/decisions/020-scorm.md). */
function scormFrames(config: Platform["config"]) {
  return `${config.PUBLIC_SCHEME}://*.${config.SCORM_DOMAIN ?? `scorm.${config.PLATFORM_DOMAIN}`}:*`;
}

function helmetMiddleware(config: Platform["config"]) {
  const nonce = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce}'`;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'", nonce],
        "style-src": ["'self'", nonce],
        // style="" attributes (React's and the video player's sizing) cannot run code; <style> still needs the nonce.
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        // Lesson videos may live on other sites (an http(s) address) or video services (embedded frames).
        "media-src": ["'self'", "blob:", "https:"],
        "frame-src": ["'self'", "https:", scormFrames(config)],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'self'"],
        "form-action": ["'self'"],
        "upgrade-insecure-requests": null,
      },
    },
    // Cross-origin isolation would break embedded players and SCORM frames later; not worth it here.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: "no-referrer" },
    strictTransportSecurity: false,
  });
}

/**
 * The organization's file did not open: held whole for a moment by another process, it is waited for on
 * timers (server/tenant-lock.ts `openWhenFree`), then the request goes on, or gets the busy 503; damaged or
 * missing, that organization answers 503.
 */
function notOpened(platform: Platform, organization: Organization, req: Request, res: Response, next: NextFunction, error: unknown) {
  const failed = (failure: unknown) => {
    if (openWasBusy(failure)) return sendTenantBusy(req, res);
    if (!(failure instanceof DatabaseUnavailableError)) return next(failure);
    logger.error({ org: organization.id, reason: failure.message }, "tenant unavailable");
    sendStatusPage(req, res, 503, { language: organization.language });
  };
  if (!openWasBusy(error)) return failed(error);
  openWhenFree(
    res,
    platform.tenants,
    organization.id,
    (db) => {
      res.locals.tenant = { organization, db } satisfies TenantLocals;
      next();
    },
    failed,
  );
}

/**
 * Host → organization → that organization's database, or a 404 (unknown host) / 503 (its database
 * cannot be read, or is held whole by another process for longer than a write waits) before anything else
 * runs. The platform host goes on with no organization.
 */
function tenancy(platform: Platform, pageCache: VisitorPageCache) {
  return (req: Request, res: Response, next: NextFunction) => {
    const rawHost = platform.config.TRUST_PROXY ? (req.get("x-forwarded-host")?.split(",")[0]?.trim() ?? req.get("host")) : req.get("host");
    const { host, organization } = platform.organizations.resolve(rawHost);
    if (!organization) {
      if (platform.organizations.isPlatformHost(host)) {
        res.locals.tenant = { organization: null, db: null } satisfies TenantLocals;
        return next();
      }
      return sendStatusPage(req, res, 404);
    }
    // A visitor's page kept while the database's files are unchanged needs no open database
    // (server/page-cache.ts); a file SQLite found damaged is always opened (and checked) again. The
    // organization is named for the request's log line either way.
    res.locals.tenant = { organization, db: null } satisfies TenantLocals;
    if (!platform.tenants.isSuspect(organization.id) && pageCache.serveUnchanged(req, res, organization)) return;
    // The request holds the database until its response finishes or its connection closes (db/tenant-pool.ts `holdFor`).
    let db: TenantDb;
    try {
      db = platform.tenants.holdFor(organization.id, res);
    } catch (error) {
      return notOpened(platform, organization, req, res, next, error);
    }
    res.locals.tenant = { organization, db } satisfies TenantLocals;
    next();
  };
}
