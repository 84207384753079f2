import { useTranslation } from "~/utils/translate";
import { ProfileSwitch } from "./profile-switch";

/** /profile/settings: opt out of (or back into) public ranking; points keep coming either way. */
export function LeaderboardVisibility({ hidden }: { hidden: boolean }) {
  const { t } = useTranslation();
  return (
    <ProfileSwitch
      testId="leaderboard-visibility"
      title={t("leaderboard.visibility.title")}
      state={hidden ? t("leaderboard.visibility.hidden") : t("leaderboard.visibility.shown")}
      stateTestId="visibility-state"
      action="/leaderboard/visibility"
      name="hidden"
      value={hidden ? "false" : "true"}
      button={hidden ? t("leaderboard.visibility.show") : t("leaderboard.visibility.hide")}
      buttonTestId="toggle-visibility"
    />
  );
}
