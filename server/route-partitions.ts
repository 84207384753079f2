import { createRequestHandler, type ServerBuild } from "@remix-run/node";

/**
 * Remix's request handler, given only the routes a request's path can match (docs/decisions/041-stock-remix.md).
 *
 * Remix v2 and React Router 6 flatten, rank and try the whole route tree on every match, compiling a
 * regular expression for each route tried, and a page is matched five times (the handler, the loaders'
 * static handler, the render, and the browser's manifest for the path and each of its parents): with the
 * app's ~150 routes, matching cost more than the rest of a signed-in page. A route can only be on a
 * branch that matches a path when each fixed segment of its whole path (its ancestors' and its own) is
 * the path's segment at that place. So the build is cut by the path's shape (which of its segments are a
 * fixed segment some route has at that place): each part keeps the routes that fit the shape, and Remix's
 * handler is made once per part through its public API (`createRequestHandler` over a `ServerBuild` whose
 * `routes` and `assets.routes` are the part). The same routes match as in the whole build, for the path
 * and for each of its parents (tests/unit/route-partitions.test.ts, and over every route of the build in
 * tests/integration/route-partitions.test.ts), so Remix answers the same.
 *
 * The browser is unaffected: with lazy route discovery its manifest holds only the routes matched for the
 * page and its parent paths, all in the part, and `/__manifest` (the discovery of other routes) is answered
 * by the whole build. A build given as a function (development) or with a basename is not cut.
 */
type Routes = ServerBuild["routes"];
type Handler = ReturnType<typeof createRequestHandler>;

/** A segment of a route's path: a fixed one (lowercased), a parameter, or a splat. */
const PARAMETER = ":";
const SPLAT = "*";
/** In a path's shape: a segment no route has at that place, and an empty segment. */
const OTHER = "\u0000";
const EMPTY = "";
/** Parts kept at most (distinct shapes, and distinct sets of routes); past them the whole build answers. */
const MAX_SHAPES = 2048;
const MAX_PARTS = 512;

/**
 * A path's segments as React Router matches them (its `decodePath`: each segment URI-decoded, a decoded
 * "/" written back as %2F, the whole path as it came when one cannot be decoded), lowercased: routes
 * match without regard to case.
 */
export function pathSegments(pathname: string): string[] {
  let decoded = pathname;
  try {
    decoded = pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replace(/\//g, "%2F"))
      .join("/");
  } catch {
    // React Router matches the path as it came, too.
  }
  return decoded.toLowerCase().split("/").slice(1);
}

/** One path pattern's segments, each optional segment both kept and left out (as React Router expands them). */
function expand(segments: string[]): string[][] {
  if (segments.length === 0) return [[]];
  const [first, ...rest] = segments;
  const tails = expand(rest);
  if (first === SPLAT) return [[SPLAT]];
  const optional = first.endsWith("?");
  const kind = first.startsWith(":") ? PARAMETER : first.replace(/\?$/, "").toLowerCase();
  return [...tails.map((tail) => [kind, ...tail]), ...(optional ? tails : [])];
}

/** Every pattern of a route's whole path, from the root down (an absolute path starts afresh, as in React Router). */
function patternsOf(routes: Routes, id: string): string[][] {
  const paths: string[] = [];
  for (let route: Routes[string] | undefined = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined)
    paths.unshift(route.path ?? "");
  const whole = paths.reduce((joined, own) => (own.startsWith("/") ? own : `${joined}/${own}`), "");
  return expand(whole.split("/").filter(Boolean));
}

/**
 * Whether a route with this pattern may be on a branch matching a path of this shape: the pattern is no
 * longer than the path (a splat may match nothing), and each fixed segment is the path's at that place.
 */
function fits(pattern: string[], shape: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === SPLAT) return true;
    if (i >= shape.length) return false;
    if (pattern[i] !== PARAMETER && pattern[i] !== shape[i]) return false;
  }
  return true;
}

/** The build cut into parts by the shape of the paths they answer. */
export function routePartitions(build: ServerBuild) {
  const patterns = new Map(Object.keys(build.routes).map((id) => [id, patternsOf(build.routes, id)]));
  const all = [...patterns.values()].flat();
  const depth = Math.max(0, ...all.map((pattern) => pattern.length));
  /** The fixed segments some route has at each place. */
  const fixed = Array.from(
    { length: depth },
    (_, i) => new Set(all.map((pattern) => pattern[i]).filter((s) => s !== undefined && s !== PARAMETER && s !== SPLAT)),
  );
  // A segment past the longest pattern matters only as being there: the shape stops one after it.
  const shapeOf = (segments: string[]) => segments.slice(0, depth + 1).map((s, i) => (s === EMPTY ? EMPTY : fixed[i]?.has(s) ? s : OTHER));
  const byShape = new Map<string, ServerBuild>();
  const byRoutes = new Map<string, ServerBuild>();

  const partFor = (shapes: string[][]) => {
    const ids = [...patterns].filter(([, own]) => own.some((p) => shapes.some((shape) => fits(p, shape)))).map(([id]) => id);
    const key = ids.join("\n");
    let part = byRoutes.get(key);
    if (!part) {
      if (byRoutes.size >= MAX_PARTS) return build;
      // Each manifest keeps its own order: it is the order of siblings, which breaks ties in ranking.
      const kept = new Set(ids);
      const pick = <T>(routes: Record<string, T>) => Object.fromEntries(Object.entries(routes).filter(([id]) => kept.has(id)));
      part = { ...build, routes: pick(build.routes), assets: { ...build.assets, routes: pick(build.assets.routes) } };
      byRoutes.set(key, part);
    }
    return part;
  };

  return {
    /** The part of the build holding every route that `pathname`, or one of its parents, can match. */
    forPath(pathname: string): ServerBuild {
      const segments = pathSegments(pathname);
      // Remix also matches the page's parent paths, made from its non-empty segments (the browser's manifest).
      const shapes = [shapeOf(segments), shapeOf(segments.filter(Boolean))];
      const key = shapes.map((shape) => shape.join("/")).join("|");
      let part = byShape.get(key);
      if (!part) {
        part = partFor(shapes);
        if (byShape.size < MAX_SHAPES) byShape.set(key, part);
      }
      return part;
    },
  };
}

/** `createRequestHandler(build, mode)`, each request handed to the handler of its path's part of the build. */
export function partitionedRequestHandler(build: ServerBuild | (() => Promise<ServerBuild>), mode: string): Handler {
  if (typeof build === "function" || (build.basename ?? "/") !== "/") return createRequestHandler(build, mode);
  const whole = createRequestHandler(build, mode);
  const partitions = routePartitions(build);
  const handlers = new Map<ServerBuild, Handler>([[build, whole]]);
  return (request, loadContext) => {
    const { pathname } = new URL(request.url);
    // Route discovery asks for any path's routes (Remix's `/__manifest`): the whole build answers it.
    if (pathname === "/__manifest") return whole(request, loadContext);
    const part = partitions.forPath(pathname);
    let handler = handlers.get(part);
    if (!handler) handlers.set(part, (handler = createRequestHandler(part, mode)));
    return handler(request, loadContext);
  };
}
