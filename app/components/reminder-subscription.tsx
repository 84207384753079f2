import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";

/** /profile/settings: e-mail reminders of assigned courses off, or back on (issue 34). */
export function ReminderSubscription({ off }: { off: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="panel" data-testid="reminder-subscription">
      <h2>{t("reminders.profile.title")}</h2>
      <p data-testid="reminders-state">{off ? t("reminders.profile.off") : t("reminders.profile.on")}</p>
      <Form method="post" action="/reminders/subscription">
        <input type="hidden" name="off" value={off ? "false" : "true"} />
        <button type="submit" data-testid="toggle-reminders">
          {off ? t("reminders.profile.turnOn") : t("reminders.profile.turnOff")}
        </button>
      </Form>
    </div>
  );
}
