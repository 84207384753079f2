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

/** Spec §1: Danish is the default date locale, whatever the interface language. */
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
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { dateStyle: "medium", ...options });
    formatters.set(key, formatter);
  }
  return formatter.format(date);
}
