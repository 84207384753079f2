import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Request, Response } from "express";
import { formatBytes } from "../app/utils/bytes";

/**
 * Pages the server answers before Remix runs: an unknown host (404) and an organization whose database
 * cannot be read, or stays locked by another process longer than a write waits (503). /api paths get the
 * JSON envelope instead. Both come in the visitor's language.
 */
const LANGUAGES = ["en", "pl", "da", "no", "sv"] as const;
type Language = (typeof LANGUAGES)[number];
type Strings = { errors: Record<string, string>; api: Record<string, string> };

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "locales");
const strings = Object.fromEntries(
  LANGUAGES.map((lng) => [lng, JSON.parse(fs.readFileSync(path.join(localesDir, lng, "common.json"), "utf8"))]),
) as Record<Language, Strings>;

function pickLanguage(req: Request, preferred?: string | null): Language {
  if (preferred && (LANGUAGES as readonly string[]).includes(preferred)) return preferred as Language;
  const accepted = req.acceptsLanguages([...LANGUAGES]);
  return typeof accepted === "string" ? (accepted as Language) : "en";
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A 503 for a tenant file another process holds locked (server/tenant-lock.ts): come back soon. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

export function sendStatusPage(
  req: Request,
  res: Response,
  status: 400 | 403 | 404 | 405 | 413 | 429 | 500 | 503,
  { language, limit, allow, busy = false }: { language?: string | null; limit?: number; allow?: readonly string[]; busy?: boolean } = {},
) {
  const lng = pickLanguage(req, language);
  const s = strings[lng];
  if (status === 503) res.setHeader("Retry-After", String(busy ? BUSY_RETRY_AFTER_SECONDS : 60));
  if (status === 405 && allow) res.setHeader("Allow", allow.join(", "));
  const tooLarge = s.api.tooLarge.replace("{{limit}}", formatBytes(limit ?? 0));
  res.setHeader("Cache-Control", "no-store");
  const { title, body, message, code } = {
    400: { title: s.errors.generic, body: s.api.badAddress, message: s.api.badAddress, code: "bad_request" },
    403: { title: s.errors.generic, body: s.api.crossSite, message: s.api.crossSite, code: "cross_site" },
    404: { title: s.errors.notFound, body: null, message: s.api.notFound, code: "not_found" },
    405: { title: s.errors.generic, body: s.api.methodNotAllowed, message: s.api.methodNotAllowed, code: "method_not_allowed" },
    413: { title: s.errors.generic, body: tooLarge, message: tooLarge, code: "too_large" },
    429: { title: s.errors.generic, body: s.api.tooManyRequests, message: s.api.tooManyRequests, code: "too_many_requests" },
    500: { title: s.errors.generic, body: s.errors.genericBody, message: s.api.error, code: "error" },
    503: {
      title: s.errors.unavailable,
      body: busy ? s.errors.busyBody : s.errors.unavailableBody,
      message: s.api.unavailable,
      code: "unavailable",
    },
  }[status];
  if (/^\/api(?:\/|$)/i.test(req.path)) {
    res.status(status).json({ error: true, payload: { message, code }, status });
    return;
  }
  const home = `<p><a href="/">${escapeHtml(s.errors.backHome)}</a></p>`;
  const html = body ? `<p>${escapeHtml(body)}</p>${status === 503 ? "" : home}` : home;
  const nonce = String(res.locals.cspNonce ?? "");
  res
    .status(status)
    .type("html")
    .send(
      `<!DOCTYPE html><html lang="${lng}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><style nonce="${nonce}">body{font-family:system-ui,sans-serif;background:#11141a;color:#e8ecf2;text-align:center;padding:4rem 1rem}a{color:#6ea8fe}</style></head>` +
        `<body><main><h1>${escapeHtml(title)}</h1>${html}</main></body></html>`,
    );
}
