import crypto from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import helmet from "helmet";
import { DatabaseUnavailableError, type TenantDb } from "../db/open";
import type { Lease } from "../db/tenant-pool";
import type { Organization } from "../db/platform";
import type { Platform } from "./platform";
import { serveFiles } from "./files";
import { healthChecks } from "./health";
import { serveImages } from "./images";
import { serveScormContent } from "./scorm/content";
import { bodyLimits, magicLinkParameter, rateLimits, sameOriginPosts } from "./protection";
import { sendStatusPage } from "./status-page";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

interface TenantLocals {
  organization: Organization | null;
  db: TenantDb | null;
}

/** The Express host: security headers, static files, tenancy, then Remix (ARCHITECTURE.md "Request flow"). */
export function createApp(platform: Platform, build: ServerBuild | (() => Promise<ServerBuild>)) {
  const { config } = platform;
  const app = express();
  app.disable("x-powered-by");
  // A number of proxy hops, never `true`: trusting every hop would let a client pick its own address.
  app.set("trust proxy", config.TRUST_PROXY ? config.TRUST_PROXY_HOPS : false);

  app.use(healthChecks(platform));
  app.use(requestId);
  if (config.LOG_REQUESTS) app.use(requestLog);
  app.use(forwardedHeaders(config.TRUST_PROXY));
  app.use(cspNonce);
  app.use(securityHeaders(config));
  app.use(compression());

  app.use("/build", express.static(path.join(root, "public", "build"), { immutable: true, maxAge: "1y" }));
  app.use(express.static(path.join(root, "public"), { maxAge: "1h", index: false, redirect: false }));

  // SCORM content hosts (<id>.<SCORM_DOMAIN>) are answered before tenancy: they are no organization's app.
  app.use(serveScormContent(platform));
  app.use(tenancy(platform));
  app.use(sameOriginPosts);
  app.use(bodyLimits(config.FILE_MAX_BYTES));
  app.use(rateLimits(config));
  app.use(magicLinkParameter);
  app.use(serveFiles(platform));
  app.use(serveImages(platform));

  app.all(
    "*",
    createRequestHandler({
      build,
      mode: config.NODE_ENV === "development" ? "development" : "production",
      getLoadContext: (req, res) => {
        const tenant = res.locals.tenant as TenantLocals;
        return {
          organization: tenant.organization,
          db: tenant.db,
          platform,
          cspNonce: res.locals.cspNonce as string,
          requestId: res.locals.requestId as string,
          clientIp: req.ip ?? "",
        };
      },
    }),
  );

  // Anything that escapes (a platform database error, a file-system failure while opening a tenant):
  // the generic page, never Express's default handler with its stack trace.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    console.error(JSON.stringify({ level: "error", msg: "unhandled", id: res.locals.requestId, error: String(error) }));
    if (res.headersSent) return res.end();
    sendStatusPage(req, res, 500);
  });

  return app;
}

function requestId(_req: Request, res: Response, next: NextFunction) {
  res.locals.requestId = crypto.randomUUID();
  res.setHeader("X-Request-Id", res.locals.requestId);
  next();
}

/** One JSON line per request, written when the response is done. */
function requestLog(req: Request, res: Response, next: NextFunction) {
  const started = process.hrtime.bigint();
  res.on("finish", () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    process.stdout.write(
      `${JSON.stringify({
        t: new Date().toISOString(),
        id: res.locals.requestId,
        host: req.headers.host,
        method: req.method,
        path: redactPath(req.path),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      })}\n`,
    );
  });
  next();
}

/** Reset links carry a secret in their path; logs must not hold working credentials. */
export function redactPath(path: string) {
  return path.replace(/^(\/auth\/reset\/[^/]+\/)[^/]+/, "$1[redacted]");
}

/**
 * Forwarded headers are the client's word unless a proxy we trust set them (SECURITY.md "Tenant
 * isolation"). Untrusted, they are removed so nothing downstream can read them by mistake.
 */
function forwardedHeaders(trusted: boolean) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!trusted) {
      delete req.headers["x-forwarded-host"];
      delete req.headers["x-forwarded-proto"];
      delete req.headers["x-forwarded-for"];
      delete req.headers.forwarded;
    }
    next();
  };
}

function cspNonce(_req: Request, res: Response, next: NextFunction) {
  res.locals.cspNonce = crypto.randomBytes(16).toString("base64");
  next();
}

/** The player frames SCORM content from `<id>.<SCORM_DOMAIN>` on any port (docs/decisions/020-scorm.md). */
function scormFrames(config: Platform["config"]) {
  return `${config.PUBLIC_SCHEME}://*.${config.SCORM_DOMAIN ?? `scorm.${config.PLATFORM_DOMAIN}`}:*`;
}

function securityHeaders(config: Platform["config"]) {
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
 * Host → organization → that organization's database, or a 404 (unknown host) / 503 (its database
 * cannot be read) before anything else runs. The platform host goes on with no organization.
 */
function tenancy(platform: Platform) {
  return (req: Request, res: Response, next: NextFunction) => {
    const rawHost = platform.config.TRUST_PROXY
      ? (req.get("x-forwarded-host")?.split(",")[0]?.trim() ?? req.get("host"))
      : req.get("host");
    const { host, organization } = platform.organizations.resolve(rawHost);
    if (!organization) {
      if (platform.organizations.isPlatformHost(host)) {
        res.locals.tenant = { organization: null, db: null } satisfies TenantLocals;
        return next();
      }
      return sendStatusPage(req, res, 404);
    }
    let lease: Lease;
    try {
      lease = platform.tenants.acquire(organization.id);
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError)) return next(error);
      console.error(
        JSON.stringify({ level: "error", msg: "tenant unavailable", organization: organization.id, reason: error.message }),
      );
      return sendStatusPage(req, res, 503, { language: organization.language });
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      platform.tenants.release(lease);
    };
    res.on("finish", release);
    res.on("close", release);
    res.locals.tenant = { organization, db: lease.db } satisfies TenantLocals;
    next();
  };
}
