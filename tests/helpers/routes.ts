import { loadBuild } from "./built-app";

/** A route of the built app as Remix's manifest gives it, with its full path pattern. */
export interface BuiltRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: Record<string, unknown>;
  /** The whole path from the root: `/courses/:id/lessons/:lessonId`. */
  pattern: string;
}

/**
 * Every route of the build under test (`build/index.js`, the server's own manifest), so a walk over them
 * takes in a new route without being told.
 */
export async function builtRoutes(): Promise<BuiltRoute[]> {
  const build = await loadBuild();
  const routes = build.routes as unknown as Record<string, Omit<BuiltRoute, "pattern">>;
  const fullPath = (id: string): string => {
    const route = routes[id];
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return route.path ? `${parent.replace(/\/$/, "")}/${route.path}` : parent || "/";
  };
  return Object.values(routes).map((r) => ({ ...r, pattern: fullPath(r.id) }));
}
