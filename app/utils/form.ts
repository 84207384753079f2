import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";

/**
 * Every form is read the same way, on the server (the truth) and in the browser (early hints): conform's
 * `parseWithZod` with the form's zod schema. Errors are translation keys, rendered with t() by
 * `ErrorList` (app/components/form.tsx), so the same messages reach people with JavaScript on or off.
 *
 * A schema may name its own key (`.min(1, "validation.required")`); every other issue gets one here, from
 * its code, instead of zod's English. A key that needs a number carries it after a `|`
 * (`validation.tooLong|120`), which `formMessage` reads back.
 */
export const formErrorMap: z.ZodErrorMap = (issue, ctx) => {
  // A key the schema named itself (`required_error`, `invalid_type_error`, an enum's errorMap) reaches this
  // map as the default message: it wins over the key chosen from the issue's code.
  if (ctx.defaultError && TRANSLATION_KEY.test(ctx.defaultError)) return { message: ctx.defaultError };
  switch (issue.code) {
    case z.ZodIssueCode.invalid_type:
      if (issue.received === "undefined" || issue.received === "null") return { message: "validation.required" };
      if (issue.expected === "number" || issue.expected === "integer") return { message: "validation.notANumber" };
      return { message: "validation.invalid" };
    case z.ZodIssueCode.too_small:
      if (issue.type === "string") {
        return { message: Number(issue.minimum) <= 1 ? "validation.required" : `validation.tooShort|${Number(issue.minimum)}` };
      }
      if (issue.type === "array")
        return { message: Number(issue.minimum) <= 1 ? "validation.required" : `validation.tooSmall|${Number(issue.minimum)}` };
      return { message: `validation.tooSmall|${Number(issue.minimum)}` };
    case z.ZodIssueCode.too_big:
      return {
        message: issue.type === "string" ? `validation.tooLong|${Number(issue.maximum)}` : `validation.tooBig|${Number(issue.maximum)}`,
      };
    case z.ZodIssueCode.invalid_enum_value:
    case z.ZodIssueCode.invalid_literal:
    case z.ZodIssueCode.invalid_union_discriminator:
      return { message: "validation.invalidOption" };
    case z.ZodIssueCode.invalid_string:
      return {
        message: issue.validation === "email" ? "validation.email" : issue.validation === "url" ? "validation.url" : "validation.invalid",
      };
    default:
      return { message: "validation.invalid" };
  }
};

/** A translation key (`validation.required`), perhaps with its number (`validation.tooLong|120`). */
const TRANSLATION_KEY = /^[a-z][\w-]*(\.[\w-]+)+(\|\d+)?$/;

/** Reads a form's data with its schema: conform's submission, with every message a translation key. */
export function parseForm<Schema extends z.ZodTypeAny>(payload: FormData | URLSearchParams, schema: Schema) {
  return parseWithZod(payload, { schema, errorMap: formErrorMap });
}

/** A message of a form error: its key and, for the keys that take one, its number. */
export function formMessage(error: string): { key: string; count?: number } {
  const bar = error.lastIndexOf("|");
  if (bar > 0 && /^\d+$/.test(error.slice(bar + 1))) return { key: error.slice(0, bar), count: Number(error.slice(bar + 1)) };
  return { key: error };
}
