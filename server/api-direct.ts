// Not re-exported by the package index; the same functions its request handler uses.
import { sendRemixResponse } from "@remix-run/express/dist/server.js";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import { isRouteErrorResponse, json, matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { NextFunction, Request, Response } from "express";
import { jsonReplyText } from "../app/utils/json-reply";
import { BodyTooLarge } from "./body-limits";
import { remixErrorOnApi } from "./documents";
import { sendStatusPage } from "./status-page";
import { ClientGone, laneRequest, remixUrl, streamingRequest } from "./lane-request";
import { isBusyError } from "../db/write-lock";
import { sendTenantBusy } from "./tenant-lock";

/**
 * `/api/…` resource routes served without Remix's document machinery (docs/decisions/014-speed.md).
 *
 * Remix answers a resource route by matching the path against every route twice, building the Request
 * three times (once from Express, then once each to strip `?index` and `?_data`), and going through the
 * router's static handler. Here the route is matched once against only the routes that can match the
 * path, its loader or action is called with the same arguments, and the reply is made as Remix makes it:
 *  - the same match: React Router's own `matchRoutes` over the same route tree, restricted to the routes
 *    whose path can start with `/api/<second segment>` (the others cannot match it), order kept;
 *  - the same Request (built by server/lane-request.ts, or streamed for an upload)
 *    and load context;
 *  - a returned Response as is, a thrown one with `X-Remix-Catch: yes`, a plain value as JSON, any other
 *    error through the build's `handleError` and a 500 "Unexpected Server Error"; HEAD without a body.
 * Everything Remix would treat differently is handed on to it untouched: a path that matches a route with
 * a page (a default export or an ErrorBoundary), a route without the loader or action the method needs
 * (Remix's 400/405), other methods, `?_data`, `?index` and `?_routes` queries, and development builds.
 */
type RouteModule = ServerBuild["routes"][string]["module"];
interface Route extends Omit<AgnosticRouteObject, "children"> {
  id: string;
  module: RouteModule;
  children?: Route[];
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
const REMIX_PARAMS = /(?:^|[?&])(?:_data|index|_routes|[^=&]*%)/;

interface Plan {
  pathname: string;
  route: Route;
  params: Record<string, string | undefined>;
  handler: (args: never) => unknown;
  mutation: boolean;
}

/**
 * The lane in two halves. `plan`, early in the chain, decides from the method and address alone whether the
 * lane answers (and keeps the matched route on `res.locals.apiPlan`); the middleware between them (tenancy,
 * protection) runs as for any request; `handle`, where Remix would be called, answers. A planned request
 * skips the general compression middleware: `handle` compresses what is worth it (`compress`).
 */
export function directApiRoutes(
  build: ServerBuild,
  getLoadContext: (req: Request, res: Response) => Promise<AppLoadContext>,
  compress: (req: Request, res: Response, next: NextFunction) => void,
) {
  const matchApiRoute = apiRouteMatcher(build);
  const handleError = (error: unknown, args: { context: AppLoadContext; params: object; request: globalThis.Request }) => {
    const hook = build.entry.module.handleError;
    if (hook) return hook(error, args as never);
    if (!args.request.signal.aborted) console.error(isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error);
  };

  const planFor = (req: Request): Plan | null => {
    if (!req.path.startsWith("/api/") || !METHODS.has(req.method)) return null;
    const url = req.originalUrl;
    const q = url.indexOf("?");
    if (q !== -1 && REMIX_PARAMS.test(url.slice(q))) return null;
    let pathname: string;
    try {
      pathname = new URL(`http://host${url}`).pathname;
    } catch {
      return null;
    }
    if (!pathname.startsWith("/api/")) return null;
    const matches = matchApiRoute(pathname);
    const leaf = matches?.[matches.length - 1];
    const route = leaf?.route as Route | undefined;
    const module = route?.module;
    if (!leaf || !route || !module || module.default != null || module.ErrorBoundary != null) return null;
    const mutation = req.method !== "GET" && req.method !== "HEAD";
    const handler = (mutation ? module.action : module.loader) as Plan["handler"] | undefined;
    if (!handler) return null;
    return { pathname, route, params: leaf.params, handler, mutation };
  };

  const plan = (req: Request, res: Response, next: NextFunction) => {
    const found = planFor(req);
    if (found) res.locals.apiPlan = found;
    next();
  };

  const handle = async (req: Request, res: Response, next: NextFunction) => {
    const planned = res.locals.apiPlan as Plan | undefined;
    if (!planned) return next();
    const { pathname, route, params, handler, mutation } = planned;
    try {
      // The host is part of the URL Remix parses; should it change the path, Remix decides (before any body
      // is read). A host that makes no URL (a port past 65535) is an error, as it is in Remix's adapter.
      const url = remixUrl(req);
      if (url.pathname !== pathname) return compress(req, res, next);
      const request = (await laneRequest(req, res, url.href)) ?? streamingRequest(req, res);
      const context = await getLoadContext(req, res);
      let response: globalThis.Response;
      try {
        const result: unknown = await handler({ request, context, params } as never);
        if (result === undefined) {
          throw new Error(
            `You defined ${mutation ? "an action" : "a loader"} for route "${route.id}" but didn't return ` +
              `anything from your \`${mutation ? "action" : "loader"}\` function. Please return a value or \`null\`.`,
          );
        }
        response = result instanceof globalThis.Response ? result : json(result);
      } catch (error) {
        if (error instanceof globalThis.Response) {
          response = withHeader(error, "X-Remix-Catch", "yes");
        } else if (isRouteErrorResponse(error)) {
          handleError(error, { context, params, request });
          // Production replies never carry an error's own message (Remix's sanitizeError).
          response = json({ message: "Unexpected Server Error" }, { status: error.status, statusText: error.statusText, headers: { "X-Remix-Error": "yes" } });
        } else {
          handleError(error, { context, params, request });
          // The organization's file locked by another process: 503 in the envelope, not a 500.
          if (isBusyError(error)) return sendTenantBusy(req, res);
          response = new globalThis.Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
        }
      }
      // A body refused while it streamed has had its 413 (server/body-limits.ts).
      if (res.headersSent) return;
      if (remixErrorOnApi(req, response)) return sendStatusPage(req, res, response.status === 500 ? 500 : 400);
      if (req.method === "HEAD") {
        response = new globalThis.Response(null, { headers: response.headers, status: response.status, statusText: response.statusText });
      }
      await sendReply(req, res, response, compress, next);
    } catch (error) {
      if (error instanceof ClientGone) return void res.destroy();
      if (error instanceof BodyTooLarge) return;
      next(error);
    }
  };

  return { plan, handle };
}

/**
 * A JSON reply is sent whole with its length, in one write to the socket: streamed as Remix streams it,
 * the body and the end of a chunked reply went out as separate writes (profiles showed the writes at 14%
 * of a small /api call). A JsonReply (app/utils/json-reply.ts) is sent from its text, without making and
 * reading a body stream; another JSON Response is read whole first. Anything else (a file, a stream) is
 * streamed as before.
 */
async function sendReply(
  req: Request,
  res: Response,
  response: globalThis.Response,
  compress: (req: Request, res: Response, next: NextFunction) => void,
  next: NextFunction,
) {
  let body: Buffer;
  const text = jsonReplyText(response);
  if (text !== null) {
    body = Buffer.from(text);
  } else if (response.body && /^application\/json\b/i.test(response.headers.get("Content-Type") ?? "")) {
    body = Buffer.from(await response.arrayBuffer());
  } else {
    // A stream that fails midway reaches the error handler, as it did through Remix's adapter.
    return compress(req, res, () => void sendRemixResponse(res, response).catch(next));
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  res.setHeader("Content-Length", body.length);
  // Below the compression middleware's threshold it would only have added this header.
  if (body.length < COMPRESSION_THRESHOLD && !/\bno-transform\b/i.test(String(res.getHeader("Cache-Control") ?? ""))) {
    res.vary("Accept-Encoding");
    res.end(body);
    return;
  }
  compress(req, res, () => res.end(body));
}

/** The compression middleware's default threshold: smaller bodies are sent as they are. */
const COMPRESSION_THRESHOLD = 1024;

const MAX_KEPT_MATCHES = 2_000;

/**
 * React Router's match for a path under /api/, over the build's route tree restricted to the root's
 * children that can match /api/<its second segment>/… (in their order, so ranking ties resolve alike).
 */
export function apiRouteMatcher(build: ServerBuild) {
  const root = routeTree(build)[0];
  const children = root.children ?? [];
  const keys = children.map(secondSegmentKey);
  /** The route tree with only the root's children that can match /api/<second>/…, in their order. */
  const treeFor = (second: string): Route[] => [{ ...root, children: children.filter((_, i) => keys[i] === "" || keys[i] === second) }];
  const trees = new Map<string, Route[]>();
  for (const key of new Set(keys)) if (key) trees.set(key, treeFor(key));
  const openTree = treeFor("");

  // Matches kept by path (routes never change after start): a player's heartbeats all post to one path.
  // Bounded, since paths carry ids; each caller gets its own copy of the params.
  const kept = new Map<string, ReturnType<typeof matchRoutes>>();
  return (pathname: string) => {
    let matches = kept.get(pathname);
    if (matches === undefined) {
      const secondEnd = pathname.indexOf("/", 5);
      const second = pathname.slice(5, secondEnd === -1 ? undefined : secondEnd).toLowerCase();
      matches = matchRoutes((trees.get(second) ?? openTree) as AgnosticRouteObject[], pathname);
      // Only what matched, on a path of ordinary length: anyone may ask for any path, and a flood of
      // long made-up ones would otherwise hold memory or push the real ones out.
      if (matches && pathname.length <= 256) {
        if (kept.size >= MAX_KEPT_MATCHES) kept.clear();
        kept.set(pathname, matches);
      }
    }
    return matches?.map((match) => ({ ...match, params: { ...match.params } })) ?? null;
  };
}

/** Remix's safelySetHeader: a copy of the response with one more header (a thrown one may be immutable). */
function withHeader(response: globalThis.Response, name: string, value: string) {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new globalThis.Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
    ...(response.body ? { duplex: "half" } : {}),
  } as ResponseInit);
}

/** The routes as Remix's server builds them (`createRoutes`): children grouped by parent, in manifest order. */
function routeTree(build: ServerBuild): Route[] {
  const byParent = new Map<string, ServerBuild["routes"][string][]>();
  for (const route of Object.values(build.routes)) {
    const parent = route.parentId ?? "";
    let list = byParent.get(parent);
    if (!list) byParent.set(parent, (list = []));
    list.push(route);
  }
  const make = (parentId: string): Route[] =>
    (byParent.get(parentId) ?? []).map((route) => {
      const children = make(route.id);
      return {
        id: route.id,
        path: route.path,
        index: route.index,
        caseSensitive: route.caseSensitive,
        module: route.module,
        ...(children.length ? { children } : {}),
      } as Route;
    });
  return make("");
}

/**
 * For a child of the root: `null` if its path cannot start with `/api/` (a fixed first segment other
 * than `api`), the lower-cased second segment if it is `api/<fixed>…`, else "" (it may match any /api path).
 */
function secondSegmentKey(route: Route): string | null {
  const segments = (route.path ?? "").split("/").filter(Boolean);
  const fixed = (s: string | undefined) => s !== undefined && !s.startsWith(":") && !s.includes("*") && !s.endsWith("?");
  if (segments.length === 0) return "";
  if (!fixed(segments[0])) return "";
  if (segments[0].toLowerCase() !== "api") return null;
  if (!fixed(segments[1])) return "";
  return segments[1].toLowerCase();
}
