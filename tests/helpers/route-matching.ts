import type { ServerBuild } from "@remix-run/node";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";

/** A build's routes as React Router's route objects, for `matchRoutes`. */
export function routeTree(routes: ServerBuild["routes"], parentId?: string): AgnosticRouteObject[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map(({ id, path, index, caseSensitive }) =>
      index ? { id, path, index: true, caseSensitive } : { id, path, caseSensitive, children: routeTree(routes, id) },
    );
}

/** The routes a path matches, with their params, as React Router matches them (null for none). */
export const matched = (routes: AgnosticRouteObject[], pathname: string) =>
  matchRoutes(routes, pathname)?.map((m) => [m.route.id, m.params]) ?? null;

/** The paths Remix matches besides the page's own, for the browser's manifest: each parent, from its non-empty segments. */
export function parentPaths(pathname: string) {
  const segments = pathname.split("/").filter(Boolean);
  return segments
    .slice(0, -1)
    .map((_, i) => `/${segments.slice(0, i + 1).join("/")}`)
    .concat("/");
}
