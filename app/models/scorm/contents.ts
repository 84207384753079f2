import type { ScormItem } from "../../../db/tenant";

/**
 * A package's contents list as the manifest describes it (issue 45, docs/decisions/020-scorm.md "The
 * contents list"): the default organization's items in order and depth, with the chapter headings above
 * them. Items with `isvisible="false"` are not listed, nor items whose resource is an asset (not a SCO:
 * nothing tracks it). A package that would list nothing that way lists its visible items, or else all.
 * The listed SCOs are also what a learner must complete for the lesson to be complete.
 */
type Item = Pick<ScormItem, "scormType" | "depth" | "hidden" | "headings">;

export type ContentsEntry = { kind: "heading"; title: string; depth: number } | { kind: "item"; index: number; depth: number };

/** For each item, whether the contents list shows it. */
export function listedItems(items: Item[]): boolean[] {
  const rules: Array<(i: Item) => boolean> = [(i) => !i.hidden && i.scormType === "sco", (i) => !i.hidden, () => true];
  for (const rule of rules) if (items.some(rule)) return items.map(rule);
  return items.map(() => false);
}

/** The indexes of the items whose completion completes the lesson: the listed SCOs (the listed items when none is a SCO). */
export function requiredItems(items: Item[]): number[] {
  const listed = listedItems(items);
  const scos = items.flatMap((item, index) => (listed[index] && item.scormType === "sco" ? [index] : []));
  return scos.length ? scos : items.flatMap((_item, index) => (listed[index] ? [index] : []));
}

/**
 * The entries of the contents list, in order: a chapter's heading comes before its first listed item; a
 * chapter none of whose items is listed shows no heading.
 */
export function contentsOf(items: Item[]): ContentsEntry[] {
  const listed = listedItems(items);
  const entries: ContentsEntry[] = [];
  let open: NonNullable<Item["headings"]> = [];
  items.forEach((item, index) => {
    for (const heading of item.headings ?? []) open = [...open.filter((h) => h.depth < heading.depth), heading];
    if (!listed[index]) return;
    for (const { title, depth } of open.filter((h) => h.depth < item.depth && !h.hidden)) entries.push({ kind: "heading", title, depth });
    open = [];
    entries.push({ kind: "item", index, depth: item.depth });
  });
  return entries;
}
