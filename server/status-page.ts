import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Request, Response } from "express";

/**
 * Pages the server answers before Remix runs: an unknown host (404) and an organization whose database
 * cannot be read (503). /api paths get the JSON envelope instead. Both come in the visitor's language.
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

export function sendStatusPage(
  req: Request,
  res: Response,
  status: 404 | 503,
  { language }: { language?: string | null } = {},
) {
  const lng = pickLanguage(req, language);
  const s = strings[lng];
  if (status === 503) res.setHeader("Retry-After", "60");
  res.setHeader("Cache-Control", "no-store");
  if (req.path === "/api" || req.path.startsWith("/api/")) {
    const message = status === 404 ? s.api.notFound : s.api.unavailable;
    const code = status === 404 ? "not_found" : "unavailable";
    res.status(status).json({ error: true, payload: { message, code }, status });
    return;
  }
  const title = status === 404 ? s.errors.notFound : s.errors.unavailable;
  const body =
    status === 404
      ? `<p><a href="/">${escapeHtml(s.errors.backHome)}</a></p>`
      : `<p>${escapeHtml(s.errors.unavailableBody)}</p>`;
  const nonce = String(res.locals.cspNonce ?? "");
  res
    .status(status)
    .type("html")
    .send(
      `<!DOCTYPE html><html lang="${lng}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<title>${escapeHtml(title)}</title><style nonce="${nonce}">body{font-family:system-ui,sans-serif;background:#11141a;color:#e8ecf2;text-align:center;padding:4rem 1rem}a{color:#6ea8fe}</style></head>` +
        `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}
