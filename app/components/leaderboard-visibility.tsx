import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";

/** /profile/settings: opt out of (or back into) public ranking; points keep coming either way. */
export function LeaderboardVisibility({ hidden }: { hidden: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="panel" data-testid="leaderboard-visibility">
      <h2>{t("leaderboard.visibility.title")}</h2>
      <p data-testid="visibility-state">{hidden ? t("leaderboard.visibility.hidden") : t("leaderboard.visibility.shown")}</p>
      <Form method="post" action="/leaderboard/visibility">
        <input type="hidden" name="hidden" value={hidden ? "false" : "true"} />
        <button type="submit" data-testid="toggle-visibility">
          {hidden ? t("leaderboard.visibility.show") : t("leaderboard.visibility.hide")}
        </button>
      </Form>
    </div>
  );
}
