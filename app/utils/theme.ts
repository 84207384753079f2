export const THEMES = ["dark", "light"] as const;
export type Theme = (typeof THEMES)[number];

/** docs/product.md §1 and §9: dark is the default, except organizations 1 and 39, which default to light. */
const LIGHT_BY_DEFAULT = new Set([1, 39]);

export function defaultThemeFor(organizationId: number | null | undefined): Theme {
  return organizationId != null && LIGHT_BY_DEFAULT.has(organizationId) ? "light" : "dark";
}

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (THEMES as readonly string[]).includes(value);
}
