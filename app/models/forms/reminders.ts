import { z } from "zod";

/**
 * The organization's reminder settings (issue 34; the settings screen's "Reminders by e-mail" panel and
 * /api/reminders/settings). Not a .server module: the browser checks the form with it too (app/utils/form.ts).
 * A checkbox posts "on" when ticked and nothing when not.
 */
const checkbox = z.preprocess((v) => v === "on" || v === "true" || v === true, z.boolean());
const DAYS = "reminders.errors.daysBefore";

export const reminderSettingsSchema = z.object({
  onAssignment: checkbox,
  beforeDue: checkbox,
  daysBefore: z.number({ required_error: DAYS, invalid_type_error: DAYS }).int(DAYS).min(1, DAYS).max(30, DAYS),
  onDueDate: checkbox,
  whileOverdue: checkbox,
  weeklyDigest: checkbox,
});
export type ReminderSettingsForm = z.infer<typeof reminderSettingsSchema>;
