import { createContext, useContext, type HTMLAttributes, type ReactNode } from "react";

/**
 * Heading levels for screens that are shown both as a page of their own and inside another screen's
 * heading: the users screens are /dashboard/users (a page, whose title is its h1) and an organization's
 * users tab (under the organization's name, the h1 of app/screens/organization-layout.tsx), and the
 * confirmation of a deletion is a page of its own or an organization's tab. A screen names its title
 * `<Heading>` and its sections `<Heading sub={1}>`, and the page has one h1 and headings in order either way.
 */
const Level = createContext(1);

/** Headings inside sit one level below the heading just before this (the organization's name). */
export function Nested({ children }: { children: ReactNode }) {
  return <Level.Provider value={useContext(Level) + 1}>{children}</Level.Provider>;
}

/** The screen's title (h1 on a page of its own, h2 under the organization's name), or `sub` levels below it. */
export function Heading({ sub = 0, ...props }: HTMLAttributes<HTMLHeadingElement> & { sub?: number }) {
  const Tag = `h${Math.min(6, useContext(Level) + sub)}` as "h1" | "h2" | "h3" | "h4" | "h5" | "h6";
  return <Tag {...props} />;
}
