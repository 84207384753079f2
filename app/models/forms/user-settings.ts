import { z } from "zod";
import { LANGUAGES } from "../../utils/i18n";

/** The audit's retention choices, in days (two years unless an admin chooses otherwise), or kept for ever. */
export const AUDIT_RETENTION_CHOICES = ["90", "180", "365", "730", "1825", "3650", "forever"] as const;
export const DEFAULT_AUDIT_RETENTION_DAYS = 730;

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
  /** How long the audit of what admins did is kept: one of the choices, in days, or "forever" (issue 50). */
  auditRetentionDays: z
    .enum(AUDIT_RETENTION_CHOICES, { errorMap: () => ({ message: "validation.invalidOption" }) })
    .optional()
    .transform((v) => (v === undefined ? DEFAULT_AUDIT_RETENTION_DAYS : v === "forever" ? null : Number(v))),
});
export type UserSettingsForm = z.infer<typeof userSettingsSchema>;
