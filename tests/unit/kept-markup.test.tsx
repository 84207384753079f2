import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createRemixStub } from "@remix-run/testing";
import { describe, expect, it } from "vitest";
import { CourseCards, CourseRow, type CourseCard } from "~/components/course-cards";
import { markupKeeper, MarkupKeeperContext, MarkupStore } from "~/utils/kept-markup.server";
import { resources } from "~/utils/i18n.server";
import { createTranslator, TranslatorProvider } from "~/utils/translate";

const COURSES: CourseCard[] = [
  {
    id: 1,
    title: "River safety",
    type: "series",
    description: 'Ropes, <knots> & "currents"',
    cover: "/img/1/abc",
    episodes: 12,
    durationSeconds: 5400,
    progress: 40,
  },
  { id: 2, title: "Ålesund's history", type: "movie", episodes: 1, durationSeconds: 3600, progress: null, meta: "Added 3 Nov 2026" },
  { id: 3, title: "Quiz: finance 🙂", type: "quiz", description: "", progress: 100 },
  { id: 14, title: "<b>not bold</b>", type: "scorm", cover: null, progress: 0 },
  { id: 27, title: "Design", type: "series", episodes: 0, durationSeconds: 0 },
];

/** A page of cards in a Remix app, as the server renders it, with or without a keeper. */
function page(language: "en" | "da", keeper: ReturnType<typeof markupKeeper> | null) {
  const Stub = createRemixStub([
    {
      path: "/",
      Component: () => (
        <main>
          <CourseRow id="continue" title="Continue" courses={COURSES} eager={2} />
          <CourseCards courses={COURSES} headingLevel={2} />
          <CourseCards courses={COURSES.slice(1)} eager={1} />
        </main>
      ),
    },
  ]);
  const element: ReactElement = (
    <TranslatorProvider translator={createTranslator(language, resources)}>
      <MarkupKeeperContext.Provider value={keeper}>
        <Stub />
      </MarkupKeeperContext.Provider>
    </TranslatorProvider>
  );
  return renderToString(element);
}

/** The English page shown `count` times, each followed by the keeping its render asked for. */
function visits(store: MarkupStore, count: number) {
  for (let visit = 0; visit < count; visit++) {
    const keeper = markupKeeper(store);
    page("en", keeper);
    keeper.fill();
  }
}

describe("kept markup of course cards", () => {
  it("gives the page byte for byte as rendered in place, cold and warm, in each language", () => {
    const store = new MarkupStore(1_000_000);
    for (const language of ["en", "da"] as const) {
      const plain = page(language, null);
      const before = store.size;
      for (let visit = 1; visit <= 3; visit++) {
        const keeper = markupKeeper(store);
        expect(page(language, keeper)).toBe(plain);
        keeper.fill();
        // A part is kept the second time it is shown: on the first visit, only the four cards this page
        // shows twice (in the row and again in the last grid); after the second, every part.
        if (visit === 1) expect(store.size - before).toBe(4);
      }
      // Each language's cards are its own: Danish words on the Danish page.
      expect(plain).toContain(language === "da" ? "afsnit" : "episodes");
    }
    // Every distinct card was kept once: per language, the row's five and the h2 grid's five (the last grid
    // shows the row's cards again, with the same heading and eagerness).
    expect(store.size).toBe(2 * 10);
  });

  it("serves a warm page from the store (it does not render the kept parts again)", () => {
    const store = new MarkupStore(1_000_000);
    visits(store, 2);
    // Poison every kept entry: a warm page must show what the store holds.
    const keys: string[] = [];
    const spy = { ...markupKeeper(store), html: (key: string) => (keys.push(key), `<i>kept ${keys.length}</i>`) };
    const html = page("en", spy);
    expect(keys.length).toBe(COURSES.length * 3 - 1);
    expect(html).toContain("<i>kept 1</i>");
    expect(html).not.toContain("River safety</a>");
  });

  it("keeps nothing when its size is 0", () => {
    const store = new MarkupStore(0);
    visits(store, 3);
    expect(store.size).toBe(0);
  });

  it("changes the key with anything a card shows", () => {
    const store = new MarkupStore(1_000_000);
    const keys = new Set<string>();
    const recorder = { html: (key: string) => void keys.add(key) as undefined, keep: () => {} };
    const render = (course: CourseCard) =>
      renderToString(
        <TranslatorProvider translator={createTranslator("en", resources)}>
          <MarkupKeeperContext.Provider value={recorder}>
            <ul>
              <CourseCards courses={[course]} />
            </ul>
          </MarkupKeeperContext.Provider>
        </TranslatorProvider>,
      );
    const base = COURSES[0];
    const variants: CourseCard[] = [
      base,
      { ...base, title: "River safety 2" },
      { ...base, type: "movie" },
      { ...base, description: "Other" },
      { ...base, cover: "/img/1/def" },
      { ...base, episodes: 13 },
      { ...base, durationSeconds: 60 },
      { ...base, progress: 41 },
      { ...base, progress: null },
      { ...base, meta: "Added today" },
      { ...base, id: 99 },
    ];
    for (const v of variants) render(v);
    expect(keys.size).toBe(variants.length);
    expect(store.size).toBe(0);
  });

  it("keeps at most its size: the oldest leave first, unless read since they were last passed over", () => {
    const store = new MarkupStore(100);
    store.set("a", "x".repeat(9));
    store.set("b", "y".repeat(9));
    expect(store.get("a")).toBe("x".repeat(9));
    for (let i = 0; i < 9; i++) store.set(`k${i}`, "z".repeat(8));
    // 10 + 10 + 9 × 10 = 110 > 100: "a" was read, so "b" leaves first.
    expect(store.get("b")).toBeUndefined();
    expect(store.get("a")).toBe("x".repeat(9));
    for (let i = 9; i < 30; i++) store.set(`k${i}`, "z".repeat(8));
    // Read once, kept one round more, then gone when no longer read.
    expect(store.get("a")).toBeUndefined();
    expect(store.size).toBeLessThanOrEqual(10);
    // An entry over an eighth of the store is not kept at all.
    store.set("big", "w".repeat(20));
    expect(store.get("big")).toBeUndefined();
    expect(new MarkupStore(0).size).toBe(0);
  });
});
