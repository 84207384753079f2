import { z } from "zod";
import { getReminderSettings, saveReminderSettings, type ReminderSettingsValues } from "~/models/reminder-settings.server";
import { call, E, type ApiCall } from "../contract.server";

/**
 * Reminders by e-mail (issue 34; app/models/reminders.server.ts): the organization's settings, as on the
 * settings screen's "Reminders by e-mail" panel, for its admins on its host.
 */
const settingsView = z.object({
  on_assignment: z.boolean(),
  before_due: z.boolean(),
  days_before: z.number().int().min(1).max(30),
  on_due_date: z.boolean(),
  while_overdue: z.boolean(),
  weekly_digest: z.boolean(),
});
/** A PUT names any of the settings and keeps the rest. */
export const reminderSettingsBody = settingsView.partial().strict();
const example = { on_assignment: true, before_due: true, days_before: 3, on_due_date: true, while_overdue: true, weekly_digest: true };

function view(s: ReminderSettingsValues): z.infer<typeof settingsView> {
  return {
    on_assignment: s.onAssignment,
    before_due: s.beforeDue,
    days_before: s.daysBefore,
    on_due_date: s.onDueDate,
    while_overdue: s.whileOverdue,
    weekly_digest: s.weeklyDigest,
  };
}

const guards = [E.unauthenticated, E.twoFactorPending, E.organization, E.forbidden];

export const reminderCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/reminders/settings",
    tag: "Reminders",
    summary: "Reminder settings",
    description:
      "Which reminders learners get by e-mail (on assignment, `days_before` days before the due date, on it, weekly while overdue) and whether admins get the weekly digest.",
    access: "read:organization",
    reply: settingsView,
    errors: guards,
    example: { reply: example },
    handler: ({ context }) => view(getReminderSettings(context.db!)),
  }),
  call({
    method: "PUT",
    path: "/api/reminders/settings",
    tag: "Reminders",
    summary: "Change the reminder settings",
    description: "Changes what it names and keeps the rest.",
    access: "write:organization",
    body: reminderSettingsBody,
    reply: settingsView,
    errors: [...guards, E.invalid, E.invalidBody],
    example: { body: { days_before: 5, weekly_digest: false }, reply: { ...example, days_before: 5, weekly_digest: false } },
    handler: ({ context, body }) => {
      const db = context.db!;
      const current = getReminderSettings(db);
      return view(
        saveReminderSettings(db, {
          onAssignment: body.on_assignment ?? current.onAssignment,
          beforeDue: body.before_due ?? current.beforeDue,
          daysBefore: body.days_before ?? current.daysBefore,
          onDueDate: body.on_due_date ?? current.onDueDate,
          whileOverdue: body.while_overdue ?? current.whileOverdue,
          weeklyDigest: body.weekly_digest ?? current.weeklyDigest,
        }),
      );
    },
  }),
];
