import type { XapiVersion } from "~/models/xapi/statements.server";
import { FORM_BYTES } from "./limits";

/*
 * One request to the LRS as the resources read it: the method, the resource, the parameters, the headers and
 * the body, whether it came as itself or in 1.0.3's alternate syntax (a form POSTed with `?method=`, whose
 * fields carry the headers, the parameters and the body as `content`; xAPI 1.0.3 §7.8).
 */

export const RESOURCES = [
  "statements",
  "activities/state",
  "activities/profile",
  "agents/profile",
  "activities",
  "agents",
  "about",
] as const;
export type Resource = (typeof RESOURCES)[number];

export interface XapiCall {
  method: string;
  resource: Resource;
  params: URLSearchParams;
  headers: Headers;
  version: XapiVersion | null;
  /** Whether it came in 1.0.3's alternate syntax. */
  alternate: boolean;
  /** The version header as sent (for the reply's refusal). */
  versionHeader: string | null;
  /** The body within `limit` bytes, or null when it is longer (read once). */
  body(limit: number): Promise<Buffer | null>;
}

export type Framed = { ok: true; call: XapiCall } | { ok: false; status: 400 | 404 | 405 | 413; message: string };

/** The headers a form of the alternate syntax may carry (any case), and the methods it may stand for. */
const FORM_HEADERS = ["authorization", "x-experience-api-version", "content-type", "content-length", "if-match", "if-none-match"];
const FORM_METHODS = new Set(["GET", "HEAD", "PUT", "POST", "DELETE"]);

/** `2.0`, `2.0.x` → 2.0.0; `1.0`, `1.0.x` → 1.0.3; anything else (or none) → null. */
export function versionOf(header: string | null): XapiVersion | null {
  const value = header?.trim() ?? "";
  if (/^2\.0(\.\d+)?$/.test(value)) return "2.0.0";
  if (/^1\.0(\.\d+)?$/.test(value)) return "1.0.3";
  return null;
}

/** Reads a web body to its end, or stops (and cancels it) once it passes `limit` bytes. */
export async function readLimited(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer | null> {
  if (!stream) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.byteLength;
    if (seen > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * The resource a path names. The endpoint a launch hands out ends in `/`, and content that joins it to a resource
 * with a `/` of its own (cmi5's JavaScript library does) asks for `/xapi//statements`: the same resource.
 */
function resourceOf(pathname: string): Resource | null {
  const rest = pathname.replace(/^\/xapi\/*/, "").replace(/\/$/, "");
  return (RESOURCES as readonly string[]).includes(rest) ? (rest as Resource) : null;
}

/** The request as the resources read it, or why it cannot be read. */
export async function frame(request: Request): Promise<Framed> {
  const url = new URL(request.url);
  const resource = resourceOf(url.pathname);
  if (!resource) return { ok: false, status: 404, message: "No such xAPI resource." };
  const alternate = url.searchParams.get("method");
  if (alternate === null) {
    const version = request.headers.get("x-experience-api-version");
    let taken = false;
    return {
      ok: true,
      call: {
        method: request.method,
        resource,
        alternate: false,
        params: url.searchParams,
        headers: request.headers,
        version: versionOf(version),
        versionHeader: version,
        body: (limit) => {
          if (taken) throw new Error("the body was read already");
          taken = true;
          return readLimited(request.body, limit);
        },
      },
    };
  }
  return alternateCall(request, url, resource, alternate);
}

/** 1.0.3's alternate syntax: only a form POSTed with `method` alone in its query (2.0.0 refuses it: dispatch.server.ts). */
async function alternateCall(request: Request, url: URL, resource: Resource, method: string): Promise<Framed> {
  if (request.method !== "POST") return { ok: false, status: 400, message: "The alternate request syntax is a POST." };
  if ([...url.searchParams.keys()].some((k) => k !== "method") || url.searchParams.getAll("method").length > 1)
    return { ok: false, status: 400, message: "The alternate request syntax allows no query parameter but method." };
  if (!FORM_METHODS.has(method)) return { ok: false, status: 400, message: "method must be GET, HEAD, PUT, POST or DELETE." };
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? ""))
    return { ok: false, status: 400, message: "The alternate request syntax sends a form (application/x-www-form-urlencoded)." };
  const bytes = await readLimited(request.body, FORM_BYTES);
  if (!bytes) return { ok: false, status: 413, message: `The form may be at most ${FORM_BYTES} bytes.` };
  const form = new URLSearchParams(bytes.toString("utf8"));
  // The request's own headers hold unless a field names them; its Content-Type and length are the form's.
  const headers = new Headers(request.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  const params = new URLSearchParams();
  let content: string | null = null;
  for (const [key, value] of form) {
    const lower = key.toLowerCase();
    if (FORM_HEADERS.includes(lower)) headers.set(lower, value);
    else if (key === "content") content = value;
    else params.append(key, value);
  }
  if (!headers.has("content-type") && content !== null) headers.set("content-type", "application/json");
  const version = headers.get("x-experience-api-version");
  return {
    ok: true,
    call: {
      method,
      resource,
      alternate: true,
      params,
      headers,
      version: versionOf(version),
      versionHeader: version,
      body: async (limit) => {
        const body = Buffer.from(content ?? "", "utf8");
        return body.length > limit ? null : body;
      },
    },
  };
}
