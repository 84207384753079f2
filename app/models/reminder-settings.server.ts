import { eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { reminderSettings } from "../../db/tenant";

/**
 * The organization's reminder settings (issue 34; docs/decisions/038-reminders.md): which kinds of
 * reminder go, how many days before the due day, and the weekly digest. One row; absent, everything is on.
 */
export interface ReminderSettingsValues {
  onAssignment: boolean;
  beforeDue: boolean;
  daysBefore: number;
  onDueDate: boolean;
  whileOverdue: boolean;
  weeklyDigest: boolean;
}

export const DEFAULT_REMINDER_SETTINGS: ReminderSettingsValues = {
  onAssignment: true,
  beforeDue: true,
  daysBefore: 3,
  onDueDate: true,
  whileOverdue: true,
  weeklyDigest: true,
};

export function getReminderSettings(db: TenantConn): ReminderSettingsValues {
  const row = db.select().from(reminderSettings).where(eq(reminderSettings.id, 1)).get();
  if (!row) return { ...DEFAULT_REMINDER_SETTINGS };
  const { onAssignment, beforeDue, daysBefore, onDueDate, whileOverdue, weeklyDigest } = row;
  return { onAssignment, beforeDue, daysBefore, onDueDate, whileOverdue, weeklyDigest };
}

/** Values checked by app/models/forms/reminders.ts (the screen and /api both). */
export function saveReminderSettings(db: TenantConn, values: ReminderSettingsValues) {
  const now = new Date();
  db.insert(reminderSettings)
    .values({ id: 1, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: reminderSettings.id, set: { ...values, updatedAt: now } })
    .run();
  return getReminderSettings(db);
}
