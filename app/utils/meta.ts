import type { MetaDescriptor } from "@remix-run/node";

/**
 * A page's meta tags: what the routes above it give (the root's description) with
 * the page's own title and, when it has one, its own description in place of the inherited one. Every
 * page so carries one title and one `<meta name="description">` (Lighthouse's SEO audit asks for it).
 */
export function pageMeta(
  matches: ReadonlyArray<{ meta?: MetaDescriptor[] } | undefined>,
  own: { title: string; description?: string | null },
  ...extra: MetaDescriptor[]
): MetaDescriptor[] {
  const description = own.description?.trim();
  const inherited = matches
    .flatMap((m) => m?.meta ?? [])
    .filter((m) => !("title" in m) && !(description && "name" in m && m.name === "description"));
  return [...inherited, { title: own.title }, ...(description ? [{ name: "description", content: description }] : []), ...extra];
}
