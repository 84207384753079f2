import { z, type AnyZodObject, type ZodTypeAny } from "zod";
import type { Capability } from "~/utils/capabilities";
import { MAX_PER_PAGE } from "~/utils/pagination";

/**
 * The contract of one /api call (docs/decisions/023-openapi-and-logs.md): what the reference page, the
 * OpenAPI description, the typed client and the reply checks of the integration tests are all made from.
 * `body` and `query` are the very zod objects the route validates with (a test compares them by
 * identity); `reply` is the payload inside the envelope `{ payload, status }`.
 */
export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Who may call: anyone, anyone signed in (a token or a session), a session only, a capability, or the platform's super-admins. */
export type Access = "public" | "signed-in" | "session" | "super-admin" | Capability;

export interface ErrorCase {
  status: number;
  code: string;
  when: string;
}

export interface ApiCall {
  /** The route module, as its file is named under app/routes without the extension, when not the path's own (`routeOfPath`). */
  route?: string;
  method: Method;
  /** The address with `{name}` for each path parameter, e.g. `/api/courses/{id}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** Which host answers: an organization's (the default), the platform's, or both. */
  host?: "organization" | "platform" | "both";
  query?: AnyZodObject;
  body?: ZodTypeAny;
  /** Other schemas the call checks its input with, e.g. after merging path parameters or stored settings. */
  validates?: ZodTypeAny[];
  bodyType?: "application/json" | "multipart/form-data" | "text/csv";
  /** The payload of a success, inside the envelope; for a file reply, its media type instead. */
  reply: ZodTypeAny | { file: string };
  status?: number;
  /** Other successful replies (e.g. 202 while a PDF is being made). */
  otherReplies?: Array<{ status: number; reply: ZodTypeAny; description: string }>;
  errors: ErrorCase[];
  example: { query?: Record<string, string>; body?: unknown; reply?: unknown };
}

/* ---------- the envelope ---------- */

export const errorPayload = z.object({
  message: z.string(),
  code: z.string(),
  fields: z.record(z.array(z.string())).optional(),
});

export const errorEnvelope = z.object({ error: z.literal(true), payload: errorPayload, status: z.number().int() });

export function okEnvelope(payload: ZodTypeAny) {
  return z.object({ payload, status: z.number().int() });
}

export function page<T extends ZodTypeAny>(item: T) {
  return z.object({
    data: z.array(item),
    meta: z.object({
      current_page: z.number().int(),
      per_page: z.number().int().max(Math.max(MAX_PER_PAGE, 1000)),
      total: z.number().int(),
      last_page: z.number().int(),
    }),
  });
}

/* ---------- shared bits of replies ---------- */

export const isoDate = z.string().datetime({ offset: true });
export const id = z.number().int().positive();
export const deleted = z.object({ id, deleted: z.literal(true) });
export const moved = z.object({ id, moved: z.literal(true) });
export const signedUrl = z.object({ url: z.string().url(), expires_at: isoDate });

/** The id in a path: digits (anything else is a 404). */
export const idParam = z.object({ id: z.string().regex(/^\d+$/) });

/* ---------- error cases used by many calls ---------- */

export const E = {
  unauthenticated: { status: 401, code: "unauthenticated", when: "no valid token or session" },
  twoFactorPending: { status: 401, code: "two_factor_pending", when: "the token still waits for its two-factor code" },
  organization: { status: 403, code: "organization", when: "the caller has no role in this organization" },
  forbidden: { status: 403, code: "forbidden", when: "the caller lacks the capability" },
  sessionOnly: { status: 403, code: "session_only", when: "called with an API token instead of a sign-in" },
  notFound: { status: 404, code: "not_found", when: "no such thing in this organization (or not visible to the caller)" },
  invalid: { status: 422, code: "invalid", when: "a field is missing or wrong; `fields` names each one" },
  invalidBody: { status: 422, code: "invalid_body", when: "the body is not JSON or a form" },
  method: { status: 405, code: "method_not_allowed", when: "another method; `Allow` lists the right ones" },
  rateLimited: { status: 429, code: "too_many_requests", when: "too many requests from this address; see `Retry-After`" },
  crossSite: { status: 403, code: "cross_site", when: "a cookie-signed post from another site" },
} satisfies Record<string, ErrorCase>;

/** The errors any call that checks a capability can give. */
export function guarded(...more: ErrorCase[]): ErrorCase[] {
  return [E.unauthenticated, E.twoFactorPending, E.organization, E.forbidden, E.notFound, ...more];
}

/** A call's path parameters, as an object schema for the description. */
export function pathParams(path: string): AnyZodObject | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  if (!names.length) return undefined;
  return z.object(Object.fromEntries(names.map((n) => [n, n === "id" ? z.string().regex(/^\d+$/) : z.string()])));
}

/** The route file a path belongs to: `/api/courses/{id}` → `api.courses.$id`. */
export function routeOfPath(path: string) {
  return path
    .slice(1)
    .split("/")
    .map((s) => (s.startsWith("{") ? `$${s.slice(1, -1)}` : s.replace(/\./g, "[.]")))
    .join(".");
}
