import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { MarkupKeeperContext, type MarkupKeeper } from "~/components/kept-markup";

/**
 * Inner HTML of pure page parts (course cards), by a key naming everything the part shows and the language
 * it speaks (docs/decisions/030-kept-markup.md). A key names the inputs of a pure function, so an entry is
 * never stale and is the same for every organization and person that shows the same thing: nothing is
 * invalidated, entries only leave when the store is full (least recently used first).
 */
export class MarkupStore {
  private readonly entries = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string): string | undefined {
    const html = this.entries.get(key);
    if (html !== undefined) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, html);
    }
    return html;
  }

  set(key: string, html: string) {
    const size = key.length + html.length;
    if (size > this.maxChars / 8) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.chars -= key.length + old.length;
    }
    this.entries.set(key, html);
    this.chars += size;
    for (const [oldest, value] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.entries.delete(oldest);
      this.chars -= oldest.length + value.length;
    }
  }

  get size() {
    return this.entries.size;
  }
}

/** About a million characters of keys and markup (some 1,500 cards); `KEPT_MARKUP_KB=0` keeps none. */
const store = new MarkupStore(Number(process.env.KEPT_MARKUP_KB ?? 1024) * 1024);

/**
 * One render's keeper: answers from the store, and collects the parts it rendered in full, to be rendered
 * on their own and kept once the page is out (`fill`), so the page's own render is not slowed by them.
 */
export function markupKeeper(target: MarkupStore = store): MarkupKeeper & { fill(): void } {
  const pending = new Map<string, ReactElement>();
  return {
    html: (key) => target.get(key),
    keep(key, inner) {
      pending.set(key, inner);
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

export { MarkupKeeperContext };
