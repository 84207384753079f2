import type { NextFunction, Request, Response } from "express";
import { clientAddress } from "./client-address";
import type { Config } from "./config";
import { clientKey, WindowLimiter } from "./rate-limit";
import { safeRedirectPath } from "../app/utils/redirect";
import { sendStatusPage } from "./status-page";
import { isXapiPath } from "./xapi";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Cross-site request refusal (docs/security.md "Tenant isolation" and "Authorization"): a non-GET request from a
 * browser must come from a page of the same origin — with or without a cookie, since a forged sign-in post
 * would sign the victim in as the attacker. SameSite=Lax is not enough: sibling sub-domains of the platform
 * domain are the same *site*, so a page on tenant B could post to tenant A. Browsers send Sec-Fetch-Site and
 * Origin on every such request; requests with neither (scripts, curl) carry no browser's cookies.
 *
 * The check follows how the request is authenticated, not which headers it has. A bearer token
 * (`Authorization: Bearer …`) is the request's only credential: its cookies are dropped here, so nothing
 * downstream can read them, and no page can make a browser send such a header cross-site without a CORS
 * preflight, which this server never grants. Any other `Authorization` (HTTP Basic credentials that browsers
 * cache and send cross-site on their own, for an install behind a password-protected proxy) changes nothing:
 * the cookie still authenticates, so the origin is checked.
 */
export function sameOriginPosts(req: Request, res: Response, next: NextFunction) {
  if (isBearer(req.headers.authorization)) {
    if (req.headers.cookie !== undefined) delete req.headers.cookie;
    return next();
  }
  if (isOneClickUnsubscribe(req)) {
    if (req.headers.cookie !== undefined) delete req.headers.cookie;
    // Another site's Origin would make Remix refuse the action as a forgery (its Host/Origin check).
    if (req.headers.origin !== undefined) delete req.headers.origin;
    return next();
  }
  if (SAFE_METHODS.has(req.method)) return next();
  const site = req.get("sec-fetch-site");
  const origin = req.get("origin");
  // Under `Referrer-Policy: no-referrer` browsers send `Origin: null` even on same-origin form posts
  // (Fetch standard, "append a request Origin header"). Sec-Fetch-Site, which pages cannot forge, says
  // where it came from; we drop the opaque Origin so Remix's own Host/Origin check does not refuse it.
  if (origin === "null" && site === "same-origin") delete req.headers.origin;
  let allowed = true;
  if (site !== undefined) {
    allowed = site === "same-origin" || site === "none";
  } else if (origin !== undefined) {
    try {
      allowed = origin !== "null" && new URL(origin).host === req.get("host");
    } catch {
      allowed = false;
    }
  }
  if (allowed) return next();
  sendStatusPage(req, res, 403);
}

/**
 * RFC 8058's one-click unsubscribe from reminders (app/pages/reminders/unsubscribe.tsx): a mail provider
 * posts it from its own servers, a web mail client perhaps from its own page. Its only credential is the
 * signed token in its address, which turns off one person's reminders and nothing else, so it is let through
 * from any site; like a bearer request, its cookies are dropped so nothing downstream acts as whoever is
 * signed in. Exactly this path and method: every other post keeps the check.
 */
function isOneClickUnsubscribe(req: Request) {
  return req.method === "POST" && req.path === "/reminders/unsubscribe";
}

function isBearer(authorization: string | undefined) {
  return authorization !== undefined && /^Bearer\s+\S+$/i.test(authorization);
}

/**
 * Per-address limits: auth posts (sign-in, codes, resets, sign-in links) and every other mutation, each
 * counted on its own per minute (server/rate-limit.ts). Behind a trusted proxy the address is
 * X-Forwarded-For's; otherwise the socket's. Every counted reply carries the IETF RateLimit headers
 * (draft 7: `RateLimit-Policy: 5;w=60`, `RateLimit: limit=5, remaining=2, reset=41`); a refused one also
 * `Retry-After`, in seconds.
 */

export function rateLimits(config: Pick<Config, "RATE_LIMIT_AUTH" | "RATE_LIMIT_MUTATIONS">) {
  const windowMs = 60_000;
  const auth = new WindowLimiter(config.RATE_LIMIT_AUTH, windowMs);
  const mutations = new WindowLimiter(config.RATE_LIMIT_MUTATIONS, windowMs);
  const authPolicy = `${auth.limit};w=${windowMs / 1000}`;
  const mutationsPolicy = `${mutations.limit};w=${windowMs / 1000}`;
  // GET, HEAD and OPTIONS are never counted.
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const forAuth = isAuthPath(req.path);
    const limiter = forAuth ? auth : mutations;
    const now = Date.now();
    const { hits, resetAt } = limiter.hit(clientKey(clientAddress(req)), now);
    const reset = Math.max(0, Math.ceil((resetAt - now) / 1000));
    res.setHeader("RateLimit-Policy", forAuth ? authPolicy : mutationsPolicy);
    res.setHeader("RateLimit", `limit=${limiter.limit}, remaining=${Math.max(0, limiter.limit - hits)}, reset=${reset}`);
    if (hits <= limiter.limit) return next();
    res.setHeader("Retry-After", String(reset));
    sendStatusPage(req, res, 429);
  };
}

function isAuthPath(path: string) {
  return path.startsWith("/auth/") || path.startsWith("/api/auth/");
}

/**
 * docs/product.md §7: a page loaded with `?auth=<code>` signs in with that sign-in link. A GET must never spend the
 * code (mail scanners fetch links), so the page goes to /auth/magic, which asks for one click (or
 * submits itself with JavaScript) and then returns to the same address without the parameter.
 */
export function magicLinkParameter(req: Request, res: Response, next: NextFunction) {
  if (req.method !== "GET" || !req.originalUrl.includes("?") || req.path.startsWith("/api/") || req.path === "/auth/magic") return next();
  const url = new URL(req.originalUrl, "http://placeholder");
  const code = url.searchParams.get("auth");
  if (!code) return next();
  url.searchParams.delete("auth");
  const back = safeRedirectPath(url.pathname + (url.searchParams.size ? `?${url.searchParams}` : ""));
  res.redirect(303, `/auth/magic?${new URLSearchParams({ code, redirectTo: back })}`);
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];
const KNOWN_METHODS = new Set(METHODS);
/** Remix's data requests name a route (`_data`, and `_routes` for the routes of a single fetch); /api has none (server/api.ts answers it). */
const REMIX_DATA_PARAMETER = /(?:^|&)_(?:data|routes)(?:=|&|$)/;

/**
 * Requests no route can answer, refused before anything else sees them (docs/security.md "Input and content"):
 *  - a method outside HTTP's ordinary six (TRACE, PROPFIND, CONNECT, …): 405 with `Allow`; OPTIONS only on /xapi,
 *    whose CORS preflights content from other origins sends (server/xapi.ts);
 *  - a path whose percent-encoding does not decode (`/courses/%ZZ`): 400, where Remix would fail with a 500;
 *  - Remix's data parameters on an /api path (`?_data=root`, `?_routes=root`): 400, so no page loader's data is ever taken
 *    for an /api reply (Remix never answers /api: server/api.ts).
 * On /api the reply is in the envelope, on pages the status page.
 */
export function wellFormedRequests(req: Request, res: Response, next: NextFunction) {
  if (!KNOWN_METHODS.has(req.method) && !(req.method === "OPTIONS" && isXapiPath(req.path)))
    return sendStatusPage(req, res, 405, { allow: METHODS });
  const url = req.url;
  const q = url.indexOf("?");
  let path = q === -1 ? url : url.slice(0, q);
  if (path.includes("%")) {
    try {
      path = decodeURIComponent(path);
    } catch {
      return sendStatusPage(req, res, 400);
    }
  }
  // Remix matches routes on the decoded path, whatever its case.
  if (q !== -1 && /^\/api(?:\/|$)/i.test(path)) {
    const query = url.slice(q + 1);
    if (REMIX_DATA_PARAMETER.test(query)) return sendStatusPage(req, res, 400);
  }
  next();
}
