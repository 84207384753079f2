import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/utils/i18n";

const root = path.resolve(__dirname, "..", "..", "locales");
const flatten = (value: unknown, prefix = ""): Record<string, string> =>
  Object.entries(value as Record<string, unknown>).reduce<Record<string, string>>((acc, [k, v]) => {
    if (v && typeof v === "object") Object.assign(acc, flatten(v, `${prefix}${k}.`));
    else acc[`${prefix}${k}`] = String(v);
    return acc;
  }, {});
const read = (lng: string, file: string) => flatten(JSON.parse(fs.readFileSync(path.join(root, lng, file), "utf8")));
const PLURAL = /_(zero|one|two|few|many|other)$/;
/** English keys, with each plural (`x_one`, `x_other`) spelled in the language's own forms (Polish: one, few, many, other). */
function expectedKeys(enKeys: string[], lng: string) {
  const forms = new Intl.PluralRules(lng).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  const all = new Set(enKeys);
  const isPlural = (key: string) => PLURAL.test(key) && all.has(key.replace(PLURAL, "_one")) && all.has(key.replace(PLURAL, "_other"));
  for (const key of enKeys) {
    if (isPlural(key)) for (const form of forms) keys.add(key.replace(PLURAL, `_${form}`));
    else keys.add(key);
  }
  return [...keys].sort();
}
/** English text per key of the other language (a plural form English lacks is held to `x_other`). */
function plurals(en: Record<string, string>, other: Record<string, string>, lng: string) {
  const out: Record<string, string> = {};
  for (const key of expectedKeys(Object.keys(en), lng)) out[key] = en[key] ?? en[key.replace(PLURAL, "_other")];
  void other;
  return out;
}
const files = fs.readdirSync(path.join(root, "en")).filter((f) => f.endsWith(".json"));

describe("locales", () => {
  it.each(files.flatMap((file) => LANGUAGES.filter((l) => l !== "en").map((lng) => [lng, file])))(
    "%s/%s has every key of en, with the same placeholders, and no empty text",
    (lng, file) => {
      const en = read("en", file);
      const other = read(lng, file);
      expect(Object.keys(other).sort()).toEqual(expectedKeys(Object.keys(en), lng));
      for (const [key, text] of Object.entries(plurals(en, other, lng))) {
        const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
        expect(placeholders(other[key]), `${lng} ${key}`).toEqual(placeholders(text));
        expect(other[key].trim(), `${lng} ${key}`).not.toBe("");
      }
    },
  );

  it("uses the spec's wording for the messages the spec lists", () => {
    const en = read("en", "common.json");
    expect(en["errors.notFound"]).toBe("This page could not be found");
    expect(en["errors.generic"]).toBe("Something went wrong");
  });
});
