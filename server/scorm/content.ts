import crypto from "node:crypto";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { NextFunction, Request, Response } from "express";
import { DatabaseUnavailableError, type TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { getOrganization } from "../../app/models/organization.server";
import { isLanguage, type Language } from "../../app/utils/i18n";
import { resources } from "../../app/utils/i18n.server";
import { launchState, packageFile } from "../../app/models/scorm.server";
import { verifyScormToken } from "../../app/models/scorm-token.server";
import type { Platform } from "../platform";
import { rateLimits } from "../protection";
import { sendStatusPage } from "../status-page";
import { openedBy } from "./access";
import { receiveCommit } from "./commit";
import { packageCsp, sendPackageFile } from "./package-files";
import { contentCsp } from "./csp";

/**
 * SCORM content (docs/decisions/020-scorm.md): served only on `<organization id>.<SCORM_DOMAIN>`, an
 * origin of its own that holds no session and cannot read the app's cookies or pages. Every address
 * carries a signed, expiring token naming the lesson, the learner and the package; the player page hands
 * it out only after checking the learner may open the lesson, and every address checks access again.
 *
 *   /_runtime/<file>                        scorm-again and the launcher script (public library code)
 *   /p/<token>/__lectern/launch/<n>        the launcher page of the package's n-th item
 *   POST /p/<token>/__lectern/commit/<n>   the launcher's commits of that item's runtime data (./commit.ts)
 *   /p/<token>/<path>                       a file of the package
 *
 * An address that leads nowhere on a known organization's content host is a small "not found" page that
 * the player may frame like content (a missing file shows inside the lesson, not as a refused frame).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// "scorm-again" resolves (require condition) to dist/scorm-again.js; its package.json is not exported.
const scormAgainDist = path.dirname(require.resolve("scorm-again"));
const RUNTIME: Record<string, string> = {
  "scorm12.min.js": path.join(scormAgainDist, "scorm12.min.js"),
  "scorm2004.min.js": path.join(scormAgainDist, "scorm2004.min.js"),
  "launcher.js": path.join(here, "launcher.js"),
};

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  xhtml: "application/xhtml+xml; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  xsd: "application/xml; charset=utf-8",
  dtd: "application/xml-dtd; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  bmp: "image/bmp",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  m4a: "audio/mp4",
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  ogv: "video/ogg",
  vtt: "text/vtt; charset=utf-8",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  eot: "application/vnd.ms-fontobject",
  pdf: "application/pdf",
  swf: "application/x-shockwave-flash",
  wasm: "application/wasm",
};

export function contentType(file: string) {
  return TYPES[path.extname(file).slice(1).toLowerCase()] ?? "application/octet-stream";
}

function common(res: Response) {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
  res.removeHeader("X-Frame-Options");
}

function escapeJson(value: unknown) {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * "Not found" on a content host. On a known organization's host it is a small page in its language that
 * the app's player may frame (a SCO's link to a file missing from its package shows it inside the lesson);
 * elsewhere plain text that nobody may frame.
 */
function sendNotFound(res: Response, appOrigin: string | null, language: string) {
  if (!appOrigin) {
    res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
    return res.status(404).type("text/plain").send("Not Found");
  }
  const lng = (isLanguage(language) ? language : "en") as Language;
  const texts = (resources[lng].common.scorm as { content: { notFoundTitle: string; notFoundBody: string } }).content;
  res.setHeader("Content-Security-Policy", `default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self' ${appOrigin}`);
  res.setHeader("Cache-Control", "no-store");
  res
    .status(404)
    .type("text/html; charset=utf-8")
    .send(
      `<!doctype html><html lang="${lng}"><head><meta charset="utf-8"><title>${escapeHtml(texts.notFoundTitle)}</title>` +
        `<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem;color:#222;background:#fff}</style></head>` +
        `<body><h1>${escapeHtml(texts.notFoundTitle)}</h1><p>${escapeHtml(texts.notFoundBody)}</p></body></html>`,
    );
}

/** A launch's id: the time it was handed out (base 36 ms, which orders launches) and a random part. */
function newLaunchId() {
  return `${Date.now().toString(36)}.${crypto.randomBytes(8).toString("hex")}`;
}

/** Express middleware; runs before tenancy, and answers every request on a content host itself. */
export function serveScormContent(platform: Platform) {
  // Commits count against the same per-address budget of writes as the app's (a window of their own).
  const limitWrites = rateLimits(platform.config);
  return (req: Request, res: Response, next: NextFunction) => {
    const host = (req.get("host") ?? "").toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");
    const suffix = `.${platform.scormDomain}`;
    if (!host.endsWith(suffix)) return next();
    // Helmet's app CSP and frame options do not apply here: each reply sets its own.
    res.removeHeader("Content-Security-Policy");
    common(res);
    const label = host.slice(0, -suffix.length);
    const organization = /^[1-9]\d{0,9}$/.test(label) ? getOrganization(platform.db, Number(label)) : undefined;
    const appOrigin = organization ? platform.originFor(organization) : null;
    let language = organization?.language ?? "en";
    const notFound = () => sendNotFound(res, appOrigin, language);
    const commit = /^\/p\/([^/]+)\/__lectern\/commit\/(\d{1,5})$/.exec(req.path);
    if (commit && organization && req.method === "POST")
      return limitWrites(req, res, () =>
        receiveCommit(platform, organization, { token: commit[1]!, item: Number(commit[2]) }, req, res).catch(next),
      );
    if (req.method !== "GET" && req.method !== "HEAD")
      return res
        .status(405)
        .set("Allow", commit ? "POST" : "GET, HEAD")
        .type("text/plain")
        .send("Method Not Allowed");
    if (!organization) return notFound();
    const playerOrigin = platform.originFor(organization);

    const runtime = /^\/_runtime\/([a-z0-9.]+)$/.exec(req.path);
    if (runtime) {
      const file = RUNTIME[runtime[1]];
      if (!file) return notFound();
      res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
      return res.sendFile(
        file,
        { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" } },
        (error) => {
          if (error && !res.headersSent) notFound();
        },
      );
    }

    const packaged = /^\/c\/([^/]+)\/(.+)$/.exec(req.path);
    if (packaged) return servePackaged(platform, organization, { token: packaged[1]!, rest: packaged[2]! }, req, res, notFound);
    const m = /^\/p\/([^/]+)\/(.+)$/.exec(req.path);
    if (!m) return notFound();
    const token = verifyScormToken(platform, organization.id, m[1]);
    if (!token) return notFound();
    // The database answers whether the address still holds; the file itself is sent after it is given back.
    const serve = (db: TenantDb) => {
      const opened = openedBy(platform, organization, db, token);
      if (!opened) return notFound();
      const { pkg } = opened;
      language = opened.language;
      const rest = m[2];
      const launch = /^__lectern\/launch\/(\d{1,5})$/.exec(rest);
      if (launch) {
        const item = pkg.items[Number(launch[1])];
        if (!item) return notFound();
        const cmi = launchState(db, { userId: token.userId, pkg, item });
        const config = {
          version: pkg.version,
          sco: item.identifier,
          launch: `/p/${m[1]}/${item.launch.replace(/^\.\//, "")}`,
          commit: `/p/${m[1]}/__lectern/commit/${launch[1]}`,
          launchId: newLaunchId(),
          cmi,
          playerOrigin,
        };
        const script = pkg.version === "1.2" ? "scorm12.min.js" : "scorm2004.min.js";
        res.setHeader(
          "Content-Security-Policy",
          `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; frame-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${playerOrigin}`,
        );
        res.setHeader("Cache-Control", "no-store");
        res
          .type("text/html; charset=utf-8")
          .send(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(item.title)}</title>` +
              `<style>html,body{margin:0;height:100%;background:#fff}iframe{display:block;border:0;width:100%;height:100%}</style>` +
              `<script type="application/json" id="lectern-scorm">${escapeJson(config)}</script>` +
              `<script src="/_runtime/${script}"></script><script src="/_runtime/launcher.js"></script>` +
              `</head><body><iframe id="sco" title="${escapeHtml(item.title)}" allow="fullscreen; autoplay"></iframe></body></html>`,
          );
        return;
      }
      const file = packageFile(platform.dataDir, organization.id, pkg, rest);
      if (!file) return notFound();
      res.setHeader("Content-Security-Policy", contentCsp(playerOrigin));
      res.sendFile(
        file,
        { headers: { "Content-Type": contentType(file), "Cache-Control": "private, max-age=3600" }, acceptRanges: true, dotfiles: "allow" },
        (error) => {
          if (error && !res.headersSent) notFound();
        },
      );
    };
    try {
      platform.tenants.withTenant(organization.id, serve);
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError)) throw error;
      return sendStatusPage(req, res, 503, { language: organization.language });
    }
  };
}

/** An xAPI or cmi5 package's file (./package-files.ts), read from the database's answer, sent after it is given back. */
function servePackaged(
  platform: Platform,
  organization: Organization,
  address: { token: string; rest: string },
  req: Request,
  res: Response,
  notFound: () => void,
) {
  let file: string | void;
  try {
    file = platform.tenants.withTenant(organization.id, (db) => sendPackageFile(platform, organization, db, address, notFound));
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError)) throw error;
    return sendStatusPage(req, res, 503, { language: organization.language });
  }
  if (!file) return;
  res.setHeader("Content-Security-Policy", packageCsp(platform.originFor(organization)));
  res.sendFile(
    file,
    { headers: { "Content-Type": contentType(file), "Cache-Control": "private, max-age=3600" }, acceptRanges: true, dotfiles: "allow" },
    (error) => {
      if (error && !res.headersSent) notFound();
    },
  );
}
