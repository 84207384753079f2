import { z } from "zod";
import { CAPABILITIES } from "../../utils/capabilities";

/**
 * A new API token as its form gives it: a name, capabilities, a lifetime of at most `maxDays` days (the model
 * clamps too, app/models/auth/api-token.server.ts; this says so to the person). Not a .server module: the
 * browser checks the form with it too.
 */
export function tokenFormSchema(maxDays: number, defaultDays: number) {
  return z.object({
    name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(100),
    capabilities: z.array(z.enum(CAPABILITIES)).min(1, "validation.required"),
    days: z.coerce
      .number({ invalid_type_error: "tokens.daysRange" })
      .int("tokens.daysRange")
      .min(1, "tokens.daysRange")
      .max(maxDays, "tokens.daysRange")
      .default(defaultDays),
  });
}
