import { z } from "zod";

/**
 * A new LRS credential as its form gives it (docs/decisions/043-learning-record-store.md, "Credentials"): a
 * name, a scope (`all` reads and writes everything; `write` writes and reads only what it sent), the xAPI
 * version its client speaks, and a lifetime of at most `maxDays` days. Credentials bound to one person are
 * made by the player for a launch, not here. Not a .server module: the browser checks the form with it too.
 */
export const XAPI_FORM_SCOPES = ["all", "write"] as const;
export const XAPI_FORM_VERSIONS = ["2.0.0", "1.0.3"] as const;

export function xapiCredentialFormSchema(maxDays: number, defaultDays: number) {
  return z.object({
    name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(100),
    scope: z.enum(XAPI_FORM_SCOPES, { errorMap: () => ({ message: "validation.required" }) }),
    version: z.enum(XAPI_FORM_VERSIONS, { errorMap: () => ({ message: "validation.required" }) }).default("2.0.0"),
    days: z.coerce
      .number({ invalid_type_error: "lrs.credentials.daysRange" })
      .int("lrs.credentials.daysRange")
      .min(1, "lrs.credentials.daysRange")
      .max(maxDays, "lrs.credentials.daysRange")
      .default(defaultDays),
  });
}
