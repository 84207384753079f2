import { createContext, createElement, useContext, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { TranslatorProvider, useTranslation } from "~/utils/translate";

/** What a server render asks of the kept markup (app/components/course-cards.tsx). */
export interface MarkupKeeper {
  /** The inner HTML kept for this key, if any. */
  html(key: string): string | undefined;
  /** This part was rendered in place: keep its inner HTML (rendered on its own after the page). */
  keep(key: string, inner: ReactElement): void;
}

/** Provided around a server render (app/entry.server.tsx); tests render without it, or with their own. */
export const MarkupKeeperContext = createContext<MarkupKeeper | null>(null);

/**
 * An element (`<li>`) whose children are a pure function of `inputs` and the language: they may read
 * nothing else (no context but the translator, no state, no clock) and every value they show must be in
 * `inputs`. Answers the element with the inner HTML kept for these inputs, or with its children rendered
 * in place (and kept, once seen twice, after the page). Used as `useKeptElement ? useKeptElement(...) :
 * <li>` by components the browser also loads: there this module is empty.
 */
export function useKeptElement(tag: string, props: Record<string, unknown>, inputs: unknown[], children: () => ReactElement) {
  const keeper = useContext(MarkupKeeperContext);
  const translator = useTranslation();
  if (keeper) {
    const key = JSON.stringify([translator.i18n.language, inputs]);
    const html = keeper.html(key);
    // Kept: the children's elements are not even made.
    if (html !== undefined) return createElement(tag, { ...props, dangerouslySetInnerHTML: { __html: html } });
    const inner = children();
    keeper.keep(key, <TranslatorProvider translator={translator}>{inner}</TranslatorProvider>);
    return createElement(tag, props, inner);
  }
  return createElement(tag, props, children());
}

/**
 * Inner HTML of pure page parts (course cards), by a key naming everything the part shows and the language
 * it speaks (docs/decisions/030-kept-markup.md). A key names the inputs of a pure function, so an entry is
 * never stale and is the same for every organization and person that shows the same thing: nothing is
 * invalidated, entries only leave when the store is full (the oldest first, unless read since they were
 * last passed over: a "second chance", which keeps what is read without reordering on every read).
 */
export class MarkupStore {
  /** In the order kept; `used` marks an entry read since it was last passed over (a second chance). */
  private readonly entries = new Map<string, { html: string; used: boolean }>();
  private chars = 0;
  /**
   * Hashes of the keys asked for once and not kept: a part is kept the second time it is shown, not the
   * first. Hashes, not keys, so this costs 4,096 numbers at most beside the store's bound; two keys sharing
   * a hash only admit a part one showing early.
   */
  private readonly once = new Set<number>();

  constructor(private readonly maxChars: number) {}

  /**
   * Whether a part not kept is worth keeping now: it has been shown before. Parts shown only once (a
   * learner's own progress on a rarely visited course) are then never rendered a second time for nothing,
   * nor push out parts shown to many.
   */
  admit(key: string): boolean {
    if (this.maxChars === 0) return false;
    const hash = fnv1a(key);
    if (this.once.delete(hash)) return true;
    if (this.once.size >= 4096) this.once.clear();
    this.once.add(hash);
    return false;
  }

  /** A read only marks the entry used (no reordering: a page reads dozens). */
  get(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    entry.used = true;
    return entry.html;
  }

  set(key: string, html: string) {
    const size = key.length + html.length;
    if (size > this.maxChars / 8) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.chars -= key.length + old.html.length;
    }
    this.entries.set(key, { html, used: false });
    this.chars += size;
    // Oldest first; one read since it was last passed over earns an entry another round at the end.
    for (const [oldest, entry] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      if (entry.used) {
        entry.used = false;
        this.entries.set(oldest, entry);
      } else {
        this.chars -= oldest.length + entry.html.length;
      }
    }
  }

  get size() {
    return this.entries.size;
  }
}

/** FNV-1a, 32 bits, over a string's UTF-16 code units. */
function fnv1a(text: string) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** About a million characters of keys and markup (some 1,500 cards); `KEPT_MARKUP_KB=0` keeps none. */
const keptKb = Number(process.env.KEPT_MARKUP_KB || 1024);
// server/config.ts refuses a bad value at start; a script that loads the build without it gets the default.
const store = new MarkupStore((Number.isInteger(keptKb) && keptKb >= 0 ? keptKb : 1024) * 1024);

/**
 * One render's keeper: answers from the store, and collects the parts it rendered in full, to be rendered
 * on their own and kept once the page is out (`fill`), so the page's own render is not slowed by them.
 */
export function markupKeeper(target: MarkupStore = store): MarkupKeeper & { fill(): void } {
  const pending = new Map<string, ReactElement>();
  return {
    html: (key) => target.get(key),
    keep(key, inner) {
      if (target.admit(key)) pending.set(key, inner);
    },
    fill() {
      for (const [key, inner] of pending) {
        try {
          target.set(key, renderToString(inner));
        } catch {
          // Not kept: the next render renders it in full again (and reports its error there).
        }
      }
      pending.clear();
    },
  };
}
