import type { XapiVersion } from "~/models/xapi/statements.server";

/*
 * Replies of the LRS: its own, not /api's envelope (xAPI names its statuses and bodies). Every reply carries
 * the version it was answered under and the CORS headers that let content from any origin call it with a
 * credential of its own (docs/decisions/043-learning-record-store.md, "Where").
 */

const ALLOWED_HEADERS = "Authorization, Content-Type, X-Experience-API-Version, If-Match, If-None-Match, Accept-Language";
const EXPOSED_HEADERS = "ETag, Last-Modified, Content-Type, X-Experience-API-Version, X-Experience-API-Consistent-Through";
export const METHODS = "GET, HEAD, PUT, POST, DELETE, OPTIONS";

export function baseHeaders(version: XapiVersion | null, extra: HeadersInit = {}) {
  const headers = new Headers(extra);
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
  headers.set("X-Experience-API-Version", version ?? "2.0.0");
  headers.set("Cache-Control", "no-store");
  // Nothing /xapi answers is a page: a document of any type never runs or renders as one on this origin.
  headers.set("Content-Security-Policy", "sandbox; default-src 'none'; frame-ancestors 'none'");
  headers.set("X-Content-Type-Options", "nosniff");
  return headers;
}

/** A CORS preflight: any origin, the methods and headers xAPI uses, kept by the browser for a day. */
export function preflight() {
  const headers = baseHeaders(null);
  headers.set("Access-Control-Allow-Methods", METHODS);
  headers.set("Access-Control-Allow-Headers", ALLOWED_HEADERS);
  headers.set("Access-Control-Max-Age", "86400");
  return new Response(null, { status: 204, headers });
}

/** A refusal or a plain answer: a short text (xAPI asks for the status, and a message a person can read). */
export function textReply(version: XapiVersion | null, status: number, message: string, extra: HeadersInit = {}) {
  const headers = baseHeaders(version, extra);
  headers.set("Content-Type", "text/plain; charset=utf-8");
  return new Response(message, { status, headers });
}

export function jsonReply(version: XapiVersion | null, body: string, status = 200, extra: HeadersInit = {}) {
  const headers = baseHeaders(version, extra);
  headers.set("Content-Type", "application/json; charset=utf-8");
  return new Response(body, { status, headers });
}

export function emptyReply(version: XapiVersion | null, status = 204, extra: HeadersInit = {}) {
  return new Response(null, { status, headers: baseHeaders(version, extra) });
}

/** The refusal of a request without a usable credential. */
export function unauthorized(version: XapiVersion | null) {
  return textReply(version, 401, "A valid LRS credential is required (HTTP Basic).", {
    "WWW-Authenticate": 'Basic realm="xAPI", charset="UTF-8"',
  });
}
