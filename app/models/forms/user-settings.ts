import { z } from "zod";
import { LANGUAGES } from "../../utils/i18n";

/**
 * What new people of an organization start with (the users screen's settings). Not a .server module: the
 * browser checks the form with it too (app/utils/form.ts).
 */
export const userSettingsSchema = z.object({
  defaultLanguage: z
    .enum(["", ...LANGUAGES], { errorMap: () => ({ message: "validation.invalidOption" }) })
    .optional()
    .transform((v) => (v ? v : null)),
  defaultGroupIds: z
    .union([z.array(z.coerce.number().int().positive()), z.coerce.number().int().positive()])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? [...new Set(v)] : [v])),
  inviteImported: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
  twoFactorRequired: z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean()),
});
export type UserSettingsForm = z.infer<typeof userSettingsSchema>;
