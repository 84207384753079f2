import { DEFAULT_DATE_LOCALE } from "./i18n";

/**
 * Dates written out (docs/product.md §1: Danish by default). A module of its own, apart from app/utils/i18n.ts,
 * which every page's browser code imports: the learner's pages get their dates written out by the server
 * (an Intl.DateTimeFormat built in the browser cost a 40 ms task while the page hydrated,
 * docs/decisions/034-lighthouse.md), so their JavaScript need not carry this.
 */
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
