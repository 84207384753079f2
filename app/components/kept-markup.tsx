import { createContext, useContext, type ReactElement } from "react";

/**
 * The server's rendered markup of small, pure parts of a page (course cards), kept by everything they show
 * (docs/decisions/030-kept-markup.md). Only the server's render provides one; in the browser there is none
 * and every part renders as usual, so hydration sees the same DOM either way.
 */
export interface MarkupKeeper {
  /** The inner HTML kept for this key, if any. */
  html(key: string): string | undefined;
  /** This part was rendered in full: keep its inner HTML (rendered on its own after the page). */
  keep(key: string, inner: ReactElement): void;
}

export const MarkupKeeperContext = createContext<MarkupKeeper | null>(null);

export function useMarkupKeeper() {
  return useContext(MarkupKeeperContext);
}
