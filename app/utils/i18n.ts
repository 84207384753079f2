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
