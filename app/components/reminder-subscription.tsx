import { useTranslation } from "~/utils/translate";
import { ProfileSwitch } from "./profile-switch";

/** /profile/settings: e-mail reminders of assigned courses off, or back on (issue 34). */
export function ReminderSubscription({ off }: { off: boolean }) {
  const { t } = useTranslation();
  return (
    <ProfileSwitch
      testId="reminder-subscription"
      title={t("reminders.profile.title")}
      state={off ? t("reminders.profile.off") : t("reminders.profile.on")}
      stateTestId="reminders-state"
      action="/reminders/subscription"
      name="off"
      value={off ? "false" : "true"}
      button={off ? t("reminders.profile.turnOn") : t("reminders.profile.turnOff")}
      buttonTestId="toggle-reminders"
    />
  );
}
