import type { ServerBuild } from "@remix-run/node";
import type { AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";
import { routePartitions } from "../../server/route-partitions";
import { loadBuild } from "../helpers/built-app";
import { matched, parentPaths, routeTree as tree } from "../helpers/route-matching";
import { builtRoutes } from "../helpers/routes";

/**
 * Every route of the built app is matched by the part of the build its path is handed to
 * (server/route-partitions.ts) as by the whole build: the same routes with the same params, for its own
 * path, the path in capitals, with a segment more, percent-encoded, with an empty segment and for paths
 * nothing declares, and for each of their parent paths (the browser's manifest).
 */
describe("the build cut by the shape of a path (server/route-partitions.ts)", () => {
  // Importing the build and matching its whole route tree some 400 times is the slow part.
  it("matches every route's paths as the whole build does", { timeout: 120_000 }, async () => {
    const build = await loadBuild();
    const whole = tree(build.routes);
    const parts = routePartitions(build);
    const paths = new Set(["/", "/nowhere", "/nowhere/at/all", "//courses/1", "/dashboard//users", "/%E0%A4%A", "/__manifest"]);
    // Each route's own path, with a segment more, and one of: in capitals, percent-encoded, with an empty segment.
    const variants = [
      (p: string) => p.toUpperCase(),
      (p: string) => p.replace(/^\/([a-z])/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`),
      (p: string) => p.replace(/\/([^/]*)$/, "//$1"),
    ];
    for (const [i, route] of (await builtRoutes()).entries()) {
      const concrete = route.pattern
        .replace(/:[^/]+\?/g, "")
        .replace(/:[^/]+/g, "7")
        .replace(/\*$/, "a/b");
      paths
        .add(concrete)
        .add(`${concrete.replace(/\/$/, "")}/extra`)
        .add(variants[i % variants.length](concrete));
    }
    // Matching the whole tree is slow (that is the point): each path is matched against it once.
    const wholeMatches = new Map<string, ReturnType<typeof matched>>();
    const expected = (p: string) => wholeMatches.get(p) ?? wholeMatches.set(p, matched(whole, p)).get(p);
    const trees = new Map<ServerBuild, AgnosticRouteObject[]>();
    let sizes = 0;
    for (const pathname of paths) {
      const part = parts.forPath(pathname);
      sizes = Math.max(sizes, Object.keys(part.routes).length);
      const routes = trees.get(part) ?? trees.set(part, tree(part.routes)).get(part)!;
      for (const p of [pathname, ...parentPaths(pathname)]) expect(matched(routes, p), `${p} of ${pathname}`).toEqual(expected(p));
      expect(Object.keys(part.assets.routes).sort(), pathname).toEqual(Object.keys(part.routes).sort());
    }
    expect(paths.size).toBeGreaterThan(250);
    // No part is anywhere near the whole build.
    expect(sizes).toBeLessThan(Object.keys(build.routes).length / 5);
  });
});
