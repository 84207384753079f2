import type { AppLoadContext } from "@remix-run/node";
import { getFixedT } from "./i18n.server";

/**
 * A page's form: reading it (`readForm`), and turning its fields into the typed values the /api schemas take
 * (one schema for both).
 */

/** What a form is sent as: HTML forms, Remix's <Form> and its fetchers send nothing else. */
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

export function isForm(request: Request) {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  return FORM_TYPES.has(type);
}

/**
 * A post the page cannot take, with its translated message: 415 for a body that is not a form, 400 for one that
 * cannot be read or whose fields are not any the page offers. A page shows it in its error boundary
 * (app/components/error-page.tsx, the same texts by status); an action without a page (/theme, /language) answers
 * with it as it is.
 */
export async function formRefusal(context: AppLoadContext, status: 400 | 415) {
  const t = await getFixedT(context.viewer.language);
  return new Response(t(status === 415 ? "errors.notAForm" : "errors.badRequest"), {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The one way a page's action reads its form, urlencoded or multipart (issue 44: JSON, text/plain, an empty or
 * broken multipart body to an action was a 500 with its stack on stderr). A body that is not a form is refused
 * with 415, one that cannot be read as one (a multipart body cut short, or with another boundary than it
 * declares) with 400, each thrown as `formRefusal`: the sender's mistake, not the server's, so nothing is logged.
 * Every action calls it before it changes anything, even one that takes no fields (a delete, signing out), after
 * it has checked who may act. Uploads stream their body instead (app/kernel/upload.server.ts).
 */
export async function readForm(request: Request, context: AppLoadContext): Promise<FormData> {
  if (!isForm(request)) throw await formRefusal(context, 415);
  // A body read twice is the code's mistake, not the sender's: it fails as it would anywhere.
  if (request.bodyUsed) return request.formData();
  try {
    return await request.formData();
  } catch (error) {
    // A body cut off at its limit (its 413 is sent: server/body-limits.ts) or a client gone: nobody to answer.
    if (request.signal.aborted) throw error;
    throw await formRefusal(context, 400);
  }
}

export function text(formData: FormData, name: string) {
  const value = formData.get(name);
  return typeof value === "string" ? value : undefined;
}

export function checkbox(formData: FormData, name: string) {
  return formData.get(name) === "on" || formData.get(name) === "true";
}

/** A number field: "" means none (null); anything else is passed on for the schema to judge. */
export function optionalNumber(formData: FormData, name: string): number | null | string {
  const value = text(formData, name)?.trim() ?? "";
  if (value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}

export function optionalText(formData: FormData, name: string) {
  const value = text(formData, name)?.trim() ?? "";
  return value === "" ? null : value;
}

/** "move:up" style intents from MoveButtons. */
export function moveIntent(formData: FormData, prefix = "move") {
  const intent = text(formData, "intent") ?? "";
  const [name, direction] = intent.split(":");
  if (name !== prefix || (direction !== "up" && direction !== "down")) return null;
  const id = Number(text(formData, "id"));
  return Number.isSafeInteger(id) && id > 0 ? { id, direction: direction as "up" | "down" } : null;
}
