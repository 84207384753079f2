// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { createInstance, type TFunction } from "i18next";
import { afterEach, describe, expect, it } from "vitest";
import { LANGUAGES } from "~/utils/i18n";
import { resources } from "~/utils/i18n.server";
import { keptT } from "~/utils/kept-texts.server";
import { createTranslator, TranslatorProvider, useTranslation, type Translate } from "~/utils/translate";

afterEach(cleanup);

/** The i18next set-up the render used before (entry.server / entry.client): its fixed t is the reference. */
async function i18nextT(language: string, res: Record<string, { common: Record<string, unknown> }>): Promise<TFunction> {
  const instance = createInstance();
  await instance.init({
    lng: language,
    fallbackLng: "en",
    defaultNS: "common",
    ns: ["common"],
    resources: res,
    interpolation: { escapeValue: false },
    initImmediate: false,
  });
  return instance.getFixedT(null, "common");
}

/** Every key of a catalogue, as dotted paths to its texts. */
function keysOf(value: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(value).flatMap(([k, v]) =>
    v && typeof v === "object" ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

const values = {
  count: 3,
  n: 2,
  total: 7,
  name: "Ola & <b>Jan</b>",
  organization: "Acme $& Co",
  title: "{{count}}",
  done: 0,
  date: "1.2.2026",
  percent: 40,
  q: "river",
  email: "a@b.c",
  value: null,
  from: "x",
  to: undefined,
  capabilities: "",
};

describe("the translator answers as i18next did", () => {
  it.each(LANGUAGES)(
    "for every key of %s, bare, with a count, with values, as a base key of plurals (server: every language)",
    async (language) => {
      const reference = await i18nextT(language, resources);
      const { t } = createTranslator(language, resources);
      const keys = keysOf(resources[language].common);
      const bases = [...new Set(keys.map((k) => k.replace(/_(zero|one|two|few|many|other)$/, "")))];
      const calls: Array<[string | string[], Record<string, unknown>?]> = [];
      for (const key of [...keys, ...bases]) {
        calls.push([key], [key, values]);
        for (const count of [0, 1, 2, 5, 22, 1.5]) calls.push([key, { ...values, count }]);
      }
      // Thousands of calls a language, compared in a plain loop and reported together: every one that differs.
      const differing: string[] = [];
      for (const [key, options] of calls) {
        const ours = options ? t(key, options) : t(key);
        const theirs = options ? reference(key, options) : reference(key as string);
        if (ours !== theirs) differing.push(`${language} ${String(key)} ${JSON.stringify(options)}: ${ours} instead of ${theirs}`);
      }
      expect(calls.length).toBeGreaterThan(1000);
      expect(differing).toEqual([]);
    },
    30_000,
  );

  it.each(LANGUAGES)("in the browser, holding only %s's texts", async (language) => {
    const only = { [language]: resources[language] };
    const reference = await i18nextT(language, only);
    const { t } = createTranslator(language, only);
    for (const key of ["browse.episodes", "browse.courseCount", "scorm.fileCount", "nav.home", "missing.key"]) {
      for (const count of [undefined, 0, 1, 2, 5, 22]) {
        const options = count === undefined ? undefined : { count };
        expect(t(key, options)).toBe(reference(key, options));
      }
    }
  });

  it("for the odd calls: missing keys and values, arrays of keys, namespaces, defaults, objects, odd values", async () => {
    const res = {
      en: {
        common: {
          a: "A {{x}} and {{x}}",
          b: { c: "Nested" },
          list: ["one"],
          only: "English {{count}}",
          n_one: "one {{count}}",
          n_other: "{{count}} many",
          dots: { "d.e": "dotted" },
          empty: "",
          nested: "{{a.b}}/{{- raw}}",
        },
      },
      pl: {
        common: {
          a: "PL {{x}}",
          n_one: "{{count}} kurs",
          n_few: "{{count}} kursy",
          n_many: "{{count}} kursów",
          n_other: "{{count}} kursa",
          z: "zero?",
          z_zero: "zero!",
          empty: "",
        },
      },
    };
    for (const language of ["en", "pl"]) {
      const reference = await i18nextT(language, res);
      const { t } = createTranslator(language, res);
      const calls: Array<[unknown, unknown?]> = [
        ["a"],
        ["a", { x: "1$&$1" }],
        ["a", { x: undefined }],
        ["a", { x: null }],
        ["a", { x: 5 }],
        ["a", { x: { toString: () => "obj" } }],
        ["a", { x: "{{x}}" }],
        ["a", { x: ["p", "q"] }],
        ["b"],
        ["b.c"],
        ["list"],
        ["dots.d.e"],
        ["empty"],
        ["empty", { defaultValue: "dv" }],
        ["missing"],
        ["missing {{x}}", { x: "filled" }],
        ["missing", "a default"],
        ["missing", { defaultValue: "dv {{x}}", x: 1 }],
        ["n", { count: 1 }],
        ["n", { count: 3 }],
        ["n", { count: 5 }],
        ["n", { count: 0 }],
        ["n", { count: "3" }],
        ["n"],
        ["z", { count: 0 }],
        ["z", { count: 1 }],
        ["only", { count: 4 }],
        ["missing", { count: 2, defaultValue_few: "few dv", defaultValue_other: "other dv", defaultValue: "dv" }],
        ["missing", { count: 1, defaultValue_one: "one dv" }],
        [["missing", "b.c"]],
        [["missing", "other.missing"]],
        [["b", "a"]],
        ["capabilities.read:course"],
        ["common:a"],
        ["other:a"],
        ["Hello: world"],
        ["why? not:this"],
        ["nested", { a: { b: "deep" }, raw: "<i>" }],
        ["nested", {}],
        ["a", { lng: undefined }],
        ["{{ns}} {{lng}} {{lngs}} {{keyPrefix}}"],
        [undefined],
        [null],
        [""],
      ];
      for (const [key, options] of calls) {
        const expected = (reference as unknown as (...a: unknown[]) => unknown)(...(options === undefined ? [key] : [key, options]));
        const actual = (t as unknown as (...a: unknown[]) => unknown)(...(options === undefined ? [key] : [key, options]));
        expect(actual, `${language} ${JSON.stringify(key)} ${JSON.stringify(options)}`).toBe(expected);
      }
    }
  });
});

describe("the translator", () => {
  it("spells Polish plurals in their four forms and English in two", () => {
    const pl = createTranslator("pl", resources).t;
    const en = createTranslator("en", resources).t;
    expect([1, 2, 5, 22, 25, 1.5].map((count) => pl("browse.courseCount", { count }))).toEqual(
      [1, 2, 5, 22, 25, 1.5].map((count) => {
        const form = new Intl.PluralRules("pl").select(count);
        return (resources.pl.common.browse as Record<string, string>)[`courseCount_${form}`].replace("{{count}}", String(count));
      }),
    );
    expect(new Set([1, 2, 5, 1.5].map((count) => pl("browse.courseCount", { count }).replace(/[\d.,]+/, "#"))).size).toBe(4);
    expect(en("browse.courseCount", { count: 1 })).toBe(
      (resources.en.common.browse as Record<string, string>).courseCount_one.replace("{{count}}", "1"),
    );
    expect(en("browse.courseCount", { count: 2 })).toBe(
      (resources.en.common.browse as Record<string, string>).courseCount_other.replace("{{count}}", "2"),
    );
  });

  it("fills values without HTML escaping, leaves a placeholder without a value, answers the key when it has no text", () => {
    const { t } = createTranslator("en", { en: { common: { hi: "Hi {{name}}, {{other}}" } } });
    expect(t("hi", { name: "<b>Ola</b> & $1" })).toBe("Hi <b>Ola</b> & $1, {{other}}");
    expect(t("hi", { name: "Ola", other: undefined })).toBe("Hi Ola, ");
    expect(t("no.such.key")).toBe("no.such.key");
    expect(t(["no.such", "hi"], { name: "Ola" })).toBe("Hi Ola, {{other}}");
  });

  it("falls back to English on the server, and to the key in a browser holding one language", () => {
    const res = { en: { common: { onlyEn: "English" } }, da: { common: {} } };
    expect(createTranslator("da", res).t("onlyEn")).toBe("English");
    expect(createTranslator("da", { da: res.da }).t("onlyEn")).toBe("onlyEn");
  });

  it("keeps its answers on the server without changing them", () => {
    const { t } = createTranslator("pl", resources);
    const kept: Translate = keptT(t);
    for (let round = 0; round < 2; round++) {
      for (const count of [1, 3, 5]) expect(kept("browse.courseCount", { count })).toBe(t("browse.courseCount", { count }));
      expect(kept("nav.home")).toBe(t("nav.home"));
    }
  });

  it("gives components t and the language through useTranslation", () => {
    function Probe() {
      const { t, i18n } = useTranslation();
      return <p>{`${i18n.language}: ${t("greeting", { name: "Ewa" })}`}</p>;
    }
    render(
      <TranslatorProvider translator={createTranslator("sv", { sv: { common: { greeting: "Hej {{name}}" } } })}>
        <Probe />
      </TranslatorProvider>,
    );
    expect(screen.getByText("sv: Hej Ewa")).toBeTruthy();
  });
});
