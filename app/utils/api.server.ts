import type { AppLoadContext } from "@remix-run/node";
import type { TFunction } from "i18next";
import type { ZodError, ZodIssue } from "zod";
import { getFixedT } from "./i18n.server";
import { jsonReply } from "./json-reply";
import { languageFor } from "./preferences.server";

/**
 * The /api envelope (docs/architecture.md): `{ payload, status }` on success and
 * `{ error: true, payload: { message, code, fields }, status }` on failure, with the same HTTP status.
 */
export function apiOk<T>(payload: T, status = 200, headers?: HeadersInit) {
  return jsonReply({ payload, status }, { status, headers });
}

export interface ApiErrorPayload {
  message: string;
  code: string;
  fields?: Record<string, string[]>;
}

export function apiError(status: number, payload: ApiErrorPayload, headers?: HeadersInit) {
  return jsonReply({ error: true, payload, status }, { status, headers });
}

/** The translator for an /api reply, in the caller's language. */
export async function apiT(request: Request, context: AppLoadContext) {
  return getFixedT(await languageFor(request, context));
}

export async function apiNotFound(request: Request, context: AppLoadContext) {
  const t = await apiT(request, context);
  return apiError(404, { message: t("api.notFound"), code: "not_found" });
}

/** A 403 reply: the caller may not do this. */
export async function apiForbidden(request: Request, context: AppLoadContext) {
  const t = await apiT(request, context);
  return apiError(403, { message: t("api.forbidden"), code: "forbidden" });
}

/** A 422 reply whose fields each carry one message, given as a translation key. */
export async function apiRefusedFields(request: Request, context: AppLoadContext, fields: Record<string, string>) {
  const t = await apiT(request, context);
  return apiError(422, {
    message: t("api.invalid"),
    code: "invalid",
    fields: Object.fromEntries(Object.entries(fields).map(([field, key]) => [field, [t(key)]])),
  });
}

/** A 422 reply with one translated message per field. */
export async function apiInvalid(request: Request, context: AppLoadContext, error: ZodError) {
  const t = await apiT(request, context);
  return apiError(422, { message: t("api.invalid"), code: "invalid", fields: fieldErrors(error, t) });
}

export function fieldErrors(error: ZodError, t: TFunction) {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    (fields[key] ??= []).push(issueMessage(issue, t));
  }
  return fields;
}

/** Zod's own messages are English only; every message a person sees comes from the locales. */
export function issueMessage(issue: ZodIssue, t: TFunction): string {
  // Schemas shared with forms carry translation keys as their messages.
  if (/^(validation|auth|quiz)\./.test(issue.message)) return t(issue.message);
  switch (issue.code) {
    case "invalid_type":
      if (issue.received === "undefined" || issue.received === "null") return t("validation.required");
      if (issue.expected === "number" || issue.expected === "integer") return t("validation.notANumber");
      return t("validation.invalid");
    case "too_small":
      if (issue.type === "string") {
        return Number(issue.minimum) <= 1 ? t("validation.required") : t("validation.tooShort", { count: Number(issue.minimum) });
      }
      return t("validation.tooSmall", { count: Number(issue.minimum) });
    case "too_big":
      return issue.type === "string"
        ? t("validation.tooLong", { count: Number(issue.maximum) })
        : t("validation.tooBig", { count: Number(issue.maximum) });
    case "invalid_enum_value":
    case "invalid_literal":
    case "invalid_union_discriminator":
      return t("validation.invalidOption");
    default:
      return t("validation.invalid");
  }
}

/**
 * The JSON (or form) body of an /api call, checked against a schema: the data, or a thrown 422 envelope
 * with one message per field. Unknown fields are dropped by the schema (zod strips them), so extra
 * fields such as `role` can never reach a model.
 */
export async function parseApiBody<S extends import("zod").ZodTypeAny>(
  request: Request,
  context: AppLoadContext,
  schema: S,
): Promise<import("zod").infer<S>> {
  let body: unknown = {};
  const type = request.headers.get("Content-Type") ?? "";
  try {
    if (type.includes("application/json")) {
      const text = await request.text();
      body = text ? JSON.parse(text) : {};
    } else if (type.includes("form")) {
      body = Object.fromEntries(await request.formData());
    }
  } catch {
    const t = await apiT(request, context);
    throw apiError(422, { message: t("api.invalid"), code: "invalid_body" });
  }
  const result = schema.safeParse(body);
  if (!result.success) throw await apiInvalid(request, context, result.error);
  return result.data;
}

export async function apiMethodNotAllowed(request: Request, context: AppLoadContext, allowed: string[]) {
  const t = await apiT(request, context);
  return apiError(405, { message: t("api.methodNotAllowed"), code: "method_not_allowed" }, { Allow: allowed.join(", ") });
}
