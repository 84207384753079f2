import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import { keepTexts } from "../../app/utils/kept-texts.server";

/** Texts worked out once per key and values (app/utils/kept-texts.server.ts) read exactly as i18next's. */
describe("kept texts", () => {
  const options = {
    lng: "pl",
    fallbackLng: "en",
    defaultNS: "common",
    resources: {
      pl: { common: { a: "Ala", n_one: "{{count}} kurs", n_few: "{{count}} kursy", n_many: "{{count}} kursów", hi: "Cześć {{name}}" } },
      en: { common: { onlyEnglish: "Only in English" } },
    },
    interpolation: { escapeValue: false },
    initImmediate: false,
  };
  async function instances() {
    const plain = createInstance();
    await plain.init(options);
    const kept = createInstance();
    await kept.init(options);
    return { plain: plain.getFixedT(null, "common"), kept: keepTexts(kept).getFixedT(null, "common") };
  }

  it("give i18next's answer for keys, plurals, values and fallbacks, the first time and every time after", async () => {
    const { plain, kept } = await instances();
    const calls: Array<[string, Record<string, unknown>?]> = [
      ["a"],
      ["onlyEnglish"],
      ["missing.key"],
      ["n", { count: 1 }],
      ["n", { count: 3 }],
      ["n", { count: 5 }],
      ["n", { count: 22 }],
      ["hi", { name: "Ola" }],
      ["hi", { name: "Jan" }],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [key, options] of calls) {
        const expected = options ? plain(key, options) : plain(key);
        expect(options ? kept(key, options) : kept(key)).toBe(expected);
      }
    }
    expect(kept("n", { count: 5 })).toBe("5 kursów");
    expect(kept("n", { count: 3 })).toBe("3 kursy");
  });

  it("pass calls with objects among the values straight to i18next", async () => {
    const { kept } = await instances();
    const person = { toString: () => "Ewa" };
    expect(kept("hi", { name: person })).toBe("Cześć Ewa");
    person.toString = () => "Iga";
    expect(kept("hi", { name: person })).toBe("Cześć Iga");
  });
});
