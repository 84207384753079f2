import { createCookie } from "@remix-run/node";
import type { TFunction } from "i18next";
import { RemixI18Next } from "remix-i18next/server";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_NAMESPACE, FALLBACK_LANGUAGE, LANGUAGES, isLanguage, type Language } from "./i18n";

type Strings = Record<string, unknown>;

/** The locales folder, found upward from this module (it runs from app/utils in tests and from build/). */
function findLocalesDir() {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "locales", FALLBACK_LANGUAGE);
    if (fs.existsSync(candidate)) return path.dirname(candidate);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("locales folder not found");
    dir = parent;
  }
}

/**
 * Each language is a folder of JSON files (common.json, and one file per feature such as quiz.json), all
 * merged into the one `common` namespace: a feature keeps its texts under its own top-level key, and two
 * files never define the same top-level key.
 */
function loadLanguage(dir: string): Strings {
  const merged: Strings = {};
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    const strings = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Strings;
    for (const [key, value] of Object.entries(strings)) {
      if (key in merged) throw new Error(`locales: ${path.join(dir, file)} defines "${key}" again`);
      merged[key] = value;
    }
  }
  return merged;
}

const localesDir = findLocalesDir();
export const resources = Object.fromEntries(LANGUAGES.map((lng) => [lng, { common: loadLanguage(path.join(localesDir, lng)) }])) as Record<
  Language,
  { common: Strings }
>;

/**
 * A language's texts for the browser, as a script of their own (`window.__lecternTexts = {...}`): cached by
 * the browser for a year under an address that changes with the texts, instead of riding along, 50 KiB
 * at a time, in every page and every revalidation of the root loader (docs/decisions/014-speed.md).
 */
const textScripts = new Map<Language, { url: string; hash: string; body: string }>();
export function textsScript(language: Language) {
  let script = textScripts.get(language);
  if (!script) {
    // JSON.parse of a string is read much faster than the same object written as script (V8 parses JSON
    // in one pass), and the browser reads these texts while the page hydrates.
    const body = `window.__lecternTexts=JSON.parse(${JSON.stringify(JSON.stringify(resources[language].common))});\n`;
    const hash = crypto.createHash("sha256").update(body).digest("hex").slice(0, 10);
    script = { url: `/i18n/${language}-${hash}.js`, hash, body };
    textScripts.set(language, script);
  }
  return script;
}

/** The language chosen on this device with the language switch. Host-only, a year long. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
  secure: process.env.COOKIE_SECURE === "true",
});

export const i18nServer = new RemixI18Next({
  // Only the Accept-Language header is read here; detectLanguage() applies the rest of the order.
  detection: { supportedLanguages: [...LANGUAGES], fallbackLanguage: FALLBACK_LANGUAGE, order: ["header"] },
  i18next: {
    resources,
    defaultNS: DEFAULT_NAMESPACE,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
  },
});

/**
 * The interface language (docs/decisions/005-language-and-theme.md): the choice made on this device, then
 * the user's setting, then the organization's language, then the browser's Accept-Language, then en.
 */
export async function detectLanguage(
  request: Request | { headers: { get(name: string): string | null } },
  { user, organization }: { user?: { language?: string | null } | null; organization?: { language: string } | null },
): Promise<Language> {
  const chosen = await languageCookie.parse(request.headers.get("Cookie"));
  if (isLanguage(chosen)) return chosen;
  if (isLanguage(user?.language)) return user.language;
  if (isLanguage(organization?.language)) return organization.language;
  // remix-i18next reads a web Request; the server identifies a request from its headers alone, so one is
  // made here, on the only path that gets this far (a host without an organization's language).
  const asked =
    request instanceof Request
      ? request
      : new Request("http://localhost/", { headers: { "Accept-Language": request.headers.get("Accept-Language") ?? "" } });
  const accepted = await i18nServer.getLocale(asked);
  return isLanguage(accepted) ? accepted : FALLBACK_LANGUAGE;
}

/**
 * One translator per language, made on first use: remix-i18next's getFixedT builds and initialises a new
 * i18next instance on every call, which cost more than the rest of a small /api reply. Translating only
 * reads the shared resources, so one instance serves every request.
 */
const translators = new Map<Language, Promise<TFunction>>();
export function getFixedT(language: Language): Promise<TFunction> {
  let translator = translators.get(language);
  if (!translator) {
    translator = i18nServer.getFixedT(language, DEFAULT_NAMESPACE);
    translators.set(language, translator);
    translator.catch(() => translators.delete(language));
  }
  return translator;
}
