import type { AppLoadContext } from "@remix-run/node";
import { isBusyError, isCorruptionError } from "~/models/database.server";
import type { Viewer } from "~/access/viewer";
import { requireApiAuth, requireApiSession } from "~/kernel/auth.server";
import { requireApiSuperAdmin } from "~/kernel/platform-api.server";
import { apiError, apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import type { ApiCall } from "./contract.server";
import { API_CALLS } from "./calls/index.server";

/**
 * The one way /api is answered (docs/decisions/027-api-lane-and-group-commit.md): Express hands every
 * /api request to `dispatchApi` (server/api.ts, through the app build's entry module), in development,
 * tests and production alike. From the declarations of app/api/calls/ it
 *  - matches the path (404 in the envelope when no call has it) and the method (405 with `Allow` when
 *    the path has other methods; HEAD is GET without the body),
 *  - checks who may call (`access`: 401/403 by the guards of app/kernel/auth.server.ts; a capability is
 *    held in an organization, so on the platform host it is a 404),
 *  - parses the query, runs the call's `before` checks, then parses a JSON or form body with the declared
 *    schemas (422 with one message per field),
 *  - calls the handler, and puts a plain value in the envelope `{ payload, status }` with the call's
 *    status. A Response, returned or thrown, is the answer as it is; anything else thrown is a 500 in the
 *    envelope (a tenant file locked by another process: marked for the server's 503).
 */
export type DispatchApi = (request: Request, context: AppLoadContext) => Promise<Response>;

interface Route {
  /** The path's segments after `/api/`: a fixed segment in lower case, or null for a parameter. */
  segments: Array<string | null>;
  names: string[];
  byMethod: Map<string, ApiCall>;
  allow: string[];
}

/** The declared paths, by their first segment after `/api/`; within one, a fixed segment ranks before a parameter. */
export function compileRoutes(calls: readonly ApiCall[]) {
  const byPath = new Map<string, Route>();
  for (const call of calls) {
    let route = byPath.get(call.path);
    if (!route) {
      const parts = call.path.replace(/^\/api\//, "").split("/");
      route = {
        segments: parts.map((p) => (p.startsWith("{") ? null : p.toLowerCase())),
        names: parts.filter((p) => p.startsWith("{")).map((p) => p.slice(1, -1)),
        byMethod: new Map(),
        allow: [],
      };
      if (route.segments[0] === null) throw new Error(`${call.path}: an /api path starts with a fixed segment`);
      byPath.set(call.path, route);
    }
    if (route.byMethod.has(call.method)) throw new Error(`${call.method} ${call.path} is declared twice`);
    route.byMethod.set(call.method, call);
    route.allow.push(call.method);
  }
  const rank = (a: Route, b: Route) => {
    for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
      const fa = a.segments[i] !== null;
      const fb = b.segments[i] !== null;
      if (fa !== fb) return fa ? -1 : 1;
    }
    return a.segments.length - b.segments.length;
  };
  const index = new Map<string, Route[]>();
  for (const route of byPath.values()) {
    const key = route.segments[0]!;
    index.set(key, [...(index.get(key) ?? []), route]);
  }
  for (const routes of index.values()) routes.sort(rank);
  return index;
}

/** The declared path a pathname names, with its parameters, or null. */
export function matchRoute(index: Map<string, Route[]>, pathname: string): { route: Route; params: Record<string, string> } | null {
  if (!/^\/api\//i.test(pathname)) return null;
  let rest = pathname.slice(5);
  if (rest.endsWith("/")) rest = rest.slice(0, -1);
  let parts: string[];
  try {
    parts = rest.split("/").map(decodeURIComponent);
  } catch {
    return null;
  }
  const routes = index.get(parts[0].toLowerCase());
  if (!routes) return null;
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    let ok = true;
    for (let i = 1; i < parts.length && ok; i++) {
      const fixed = route.segments[i];
      ok = fixed === null ? parts[i] !== "" : fixed === parts[i].toLowerCase();
    }
    if (!ok) continue;
    const params: Record<string, string> = {};
    let n = 0;
    for (let i = 0; i < parts.length; i++) if (route.segments[i] === null) params[route.names[n++]] = parts[i];
    return { route, params };
  }
  return null;
}

/** The viewer who may make this call, or a thrown 401/403/404 in the envelope. */
async function admit(call: ApiCall, request: Request, context: AppLoadContext): Promise<Viewer> {
  const allowPendingTwoFactor = call.allowPendingTwoFactor ?? false;
  switch (call.access) {
    case "public":
      return context.viewer;
    case "signed-in":
      return requireApiAuth(request, context, { allowPendingTwoFactor });
    case "session":
      return requireApiSession(request, context, { allowPendingTwoFactor });
    case "super-admin":
      return requireApiSuperAdmin(request, context);
    default:
      // A capability is held in an organization: on the platform host there is nothing to call.
      if (!context.organization || !context.db) throw await apiNotFound(request, context);
      return requireApiAuth(request, context, { capability: call.access });
  }
}

const queryOf = (url: string) => Object.fromEntries(new URL(url).searchParams);

/** A dispatcher over a list of declared calls (tests make their own). */
export function dispatcherFor(calls: readonly ApiCall[]): DispatchApi {
  const routes = compileRoutes(calls);
  return (request, context) => dispatch(routes, calls, request, context);
}

async function dispatch(
  routes: Map<string, Route[]>,
  calls: readonly ApiCall[],
  request: Request,
  context: AppLoadContext,
): Promise<Response> {
  const found = matchRoute(routes, new URL(request.url).pathname);
  if (!found) return apiNotFound(request, context);
  const call = found.route.byMethod.get(request.method === "HEAD" ? "GET" : request.method);
  if (!call) return apiMethodNotAllowed(request, context, found.route.allow);
  try {
    const viewer = await admit(call, request, context);
    let query: unknown = queryOf(request.url);
    if (call.query && !call.ownInput) {
      const parsed = call.query.safeParse(query);
      if (!parsed.success) return await apiInvalid(request, context, parsed.error);
      query = parsed.data;
    }
    if (call.before) {
      const refused = await call.before({
        request,
        context,
        params: found.params,
        viewer,
        query: query as Record<string, string>,
        body: undefined,
        calls,
      });
      if (refused) return refused;
    }
    // JSON or a form; an upload or a CSV is read by its handler.
    const parsesBody = call.body && !call.ownInput && (call.bodyType ?? "application/json") === "application/json";
    const body = parsesBody ? await parseApiBody(request, context, call.body!) : undefined;
    const result = await call.handler({ request, context, params: found.params, viewer, query, body, calls });
    if (result instanceof Response) return result;
    if (result === undefined) throw new Error(`${call.method} ${call.path} answered nothing`);
    return apiOk(result, call.status ?? 200);
  } catch (error) {
    if (error instanceof Response) return error;
    return failed(error, request, context);
  }
}

export const dispatchApi = dispatcherFor(API_CALLS);

/** What Remix's `handleError` (app/entry.server.tsx) did for an /api call, and the envelope's 500. */
async function failed(error: unknown, request: Request, context: AppLoadContext) {
  if (isBusyError(error)) {
    // The server answers 503 with `Retry-After` (server/tenant-lock.ts).
    context.tenantBusy = true;
  } else {
    if (isCorruptionError(error) && context.organization) context.platform.tenants.markSuspect(context.organization.id);
    if (!request.signal.aborted) console.error(error);
  }
  const t = await apiT(request, context);
  return context.tenantBusy
    ? apiError(503, { message: t("api.unavailable"), code: "unavailable" }, { "Retry-After": "5" })
    : apiError(500, { message: t("api.error"), code: "error" });
}
