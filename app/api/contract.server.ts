import type { AppLoadContext } from "@remix-run/node";
import { z, type AnyZodObject, type ZodTypeAny } from "zod";
import type { Viewer } from "~/access/viewer";
import type { Capability } from "~/utils/capabilities";
import { MAX_PER_PAGE } from "~/utils/pagination";

/**
 * One /api call, declared once (docs/decisions/023-openapi-and-logs.md, 027-api-lane-and-group-commit.md):
 * its method, path, who may call, the zod schemas of its input and reply, its errors, an example, and the
 * handler. The dispatcher (app/api/dispatch.server.ts) serves it from this declaration; the reference
 * page, the OpenAPI description, the typed client and the reply checks of the integration tests are made
 * from the same objects. `reply` is the payload inside the envelope `{ payload, status }`.
 */
export type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Who may call: anyone, anyone signed in (a token or a session), a session only, a capability, or the platform's super-admins. */
export type Access = "public" | "signed-in" | "session" | "super-admin" | Capability;

export interface ErrorCase {
  status: number;
  code: string;
  when: string;
}

/** What a handler gets: the request, its load context, the path parameters, the viewer who passed the access check, and the parsed input. */
export interface CallArgs<Q = Record<string, string>, B = unknown> {
  request: Request;
  context: AppLoadContext;
  params: Record<string, string>;
  viewer: Viewer;
  /** The query, parsed by `query` when the call declares one (else the raw parameters). */
  query: Q;
  /** The body, parsed by `body` when the dispatcher reads it (a JSON or form call); else undefined (uploads and CSV are read by the handler). */
  body: B;
  /** Every declared call (the reference page and the OpenAPI description are made from them). */
  calls: readonly ApiCall[];
}

/**
 * A handler's answer: a Response as it is (e.g. `apiOk`, a file, a redirect), or a plain value the
 * dispatcher puts in the envelope with the call's `status`. A thrown Response is answered too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler<Q = any, B = any> = (args: CallArgs<Q, B>) => unknown;

export interface ApiCall {
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
  /** Signed-in calls a token still waiting for its two-factor code may make (2FA, resend, logout). */
  allowPendingTwoFactor?: boolean;
  /** The handler reads and checks its own input (uploads, CSV, an SSO answer that may come in the query): the dispatcher parses neither query nor body. */
  ownInput?: boolean;
  /** What the call checks before its body is read (the thing exists, the caller may change it): a Response answers instead. */
  before?: (args: CallArgs) => Promise<Response | undefined> | Response | undefined;
  handler: Handler;
}

type Infer<S> = S extends ZodTypeAny ? z.infer<S> : undefined;

/** A declaration, with its handler's query and body typed from its schemas. */
export function call<Q extends AnyZodObject | undefined = undefined, B extends ZodTypeAny | undefined = undefined>(
  declared: Omit<ApiCall, "query" | "body" | "handler"> & {
    query?: Q;
    body?: B;
    before?: (
      args: CallArgs<Q extends AnyZodObject ? z.infer<Q> : Record<string, string>, undefined>,
    ) => Promise<Response | undefined> | Response | undefined;
    handler: Handler<Q extends AnyZodObject ? z.infer<Q> : Record<string, string>, Infer<B>>;
  },
): ApiCall {
  return declared as ApiCall;
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
