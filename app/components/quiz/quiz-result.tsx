import { useTranslation } from "~/utils/translate";
import type { AttemptView } from "~/models/quiz-player.server";

type Revealed = AttemptView["questions"][number] & {
  correct?: boolean;
  correct_choices?: string[];
  accepted?: string[];
  explanation?: string;
};

/** Passed or failed, the score out of 100 % (docs/product.md §9), which answers were right, and the explanations. */
export function QuizResult({ attempt }: { attempt: AttemptView }) {
  const { t } = useTranslation();
  const passed = attempt.status === "passed";
  return (
    <div className={`quiz-result ${passed ? "passed" : "failed"}`} data-testid="quiz-result" data-status={attempt.status}>
      <div className="quiz-score">
        <strong data-testid="quiz-score">{t("quiz.player.score", { score: attempt.score ?? 0 })}</strong>
        <span className="quiz-verdict">{passed ? t("quiz.player.passed") : t("quiz.player.failed")}</span>
      </div>
      <p>
        {t("quiz.player.correctOf", { n: attempt.correct_count ?? 0, total: attempt.question_count })}
        {" · "}
        {t("quiz.player.attemptNumber", { n: attempt.attempt_number })}
      </p>
      {attempt.ended_by_deadline ? <p className="form-message">{t("quiz.player.endedByDeadline")}</p> : null}
      <ol className="quiz-review">
        {(attempt.questions as Revealed[]).map((q) => (
          <li key={q.id} className={q.correct ? "right" : "wrong"} data-testid="quiz-review-item">
            <p className="quiz-review-prompt">
              <span className="quiz-mark" aria-hidden="true">
                {q.correct ? "✓" : "✗"}
              </span>{" "}
              {q.prompt} <span className="visually-hidden">{q.correct ? t("quiz.player.right") : t("quiz.player.wrong")}</span>
            </p>
            {q.type === "text" ? (
              <p>
                {t("quiz.player.yourAnswer")}: <em>{q.answer?.text || t("quiz.player.noAnswer")}</em>
                <br />
                {t("quiz.player.acceptedAnswers")}: {q.accepted?.join(", ")}
              </p>
            ) : (
              <ul className="quiz-options review">
                {q.options.map((o) => {
                  const right = q.correct_choices?.includes(o.id);
                  const mine = q.answer?.choices.includes(o.id);
                  return (
                    <li key={o.id} className={[right ? "is-right" : "", mine ? "is-mine" : ""].join(" ")}>
                      {q.type === "true_false" ? t(`quiz.player.${o.id}`) : o.text}
                      {mine ? <span className="badge">{t("quiz.player.yourChoice")}</span> : null}
                      {right ? <span className="badge published">{t("quiz.player.correctChoice")}</span> : null}
                    </li>
                  );
                })}
              </ul>
            )}
            {q.explanation ? <p className="quiz-explanation">{q.explanation}</p> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
