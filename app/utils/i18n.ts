/** Shared i18n settings for the server and the browser. */
export const LANGUAGES = ["en", "pl", "da", "no", "sv"] as const;
export type Language = (typeof LANGUAGES)[number];
export const FALLBACK_LANGUAGE: Language = "en";
export const DEFAULT_NAMESPACE = "common";

/** Each language's own name, shown the same in every locale so people can find theirs. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  pl: "Polski",
  da: "Dansk",
  no: "Norsk",
  sv: "Svenska",
};

/** docs/product.md §1: Danish is the default date locale, whatever the interface language. */
export const DEFAULT_DATE_LOCALE = "da-DK";

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

// Building an Intl.DateTimeFormat costs about a millisecond; a page formats many dates with few formats.
const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatDate(
  value: Date | number | string,
  { locale = DEFAULT_DATE_LOCALE, ...options }: Intl.DateTimeFormatOptions & { locale?: string } = {},
) {
  const date = value instanceof Date ? value : new Date(value);
  const key = `${locale}|${JSON.stringify(options)}`;
  // The same dates come back on every page (a course's, a lesson's): ICU's format is ~1 µs each.
  const textKey = `${key}|${date.getTime()}`;
  const kept = formatted.get(textKey);
  if (kept !== undefined) return kept;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { dateStyle: "medium", ...options });
    formatters.set(key, formatter);
  }
  const text = formatter.format(date);
  if (formatted.size >= MAX_FORMATTED) formatted.clear();
  formatted.set(textKey, text);
  return text;
}

/** Formatted dates kept at most (by format and instant); past this many they are all dropped. */
const MAX_FORMATTED = 5_000;
const formatted = new Map<string, string>();
