import { useTranslation } from "~/utils/translate";

/** One learner's results in a quiz (the last attempt's moment as ISO text). */
export interface LearnerResult {
  userId: number;
  email: string;
  name: string;
  attempts: number;
  best: number;
  passed: boolean;
  lastAt: string;
}

/** The learners' results in a quiz, best score and last attempt each, with the CSV export when there are attempts. */
export function QuizLearnerResults({ base, learners, attemptCount }: { base: string; learners: LearnerResult[]; attemptCount: number }) {
  const { t, i18n } = useTranslation();
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language === "en" ? "da" : i18n.language, {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: "UTC",
    }).format(new Date(iso));
  return (
    <div className="panel" data-testid="quiz-results">
      <div className="toolbar">
        <h3>{t("quiz.admin.resultsTitle")}</h3>
        {attemptCount ? (
          <a href={`${base}/export`} className="button" download data-testid="export">
            {t("quiz.admin.export")}
          </a>
        ) : null}
      </div>
      {learners.length === 0 ? (
        <p className="empty-state">{t("quiz.admin.noResults")}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t("quiz.admin.learner")}</th>
              <th>{t("quiz.admin.attempts")}</th>
              <th>{t("quiz.admin.bestScore")}</th>
              <th>{t("quiz.admin.result")}</th>
              <th>{t("quiz.admin.lastAttempt")}</th>
            </tr>
          </thead>
          <tbody>
            {learners.map((l) => (
              <tr key={l.userId} data-learner={l.email}>
                <td>
                  {l.name || l.email}
                  <br />
                  <span className="hint">{l.email}</span>
                </td>
                <td>{l.attempts}</td>
                <td>{t("quiz.player.score", { score: l.best })}</td>
                <td>
                  {l.passed ? (
                    <span className="badge published">{t("quiz.player.passed")}</span>
                  ) : (
                    <span className="badge">{t("quiz.player.failed")}</span>
                  )}
                </td>
                <td>{date(l.lastAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
