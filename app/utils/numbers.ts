const formatters = new Map<string, Intl.NumberFormat>();

/**
 * A whole number in a language's format (1,234 / 1.234 / 1 234). One formatter per locale, kept: a
 * `toLocaleString(locale)` makes a new one on every call (~60 µs here), which was most of the compliance
 * report page's time with its several hundred counts.
 */
export function formatNumber(value: number, locale: string) {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale);
    formatters.set(locale, formatter);
  }
  return formatter.format(value);
}
