import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { FormMessage } from "~/components/form";
import { MoveButtons } from "~/components/move-buttons";
import { QuestionForm, type QuestionValues } from "./question-form";

/** A question as the quiz's editor lists it. */
export type EditorQuestion = QuestionValues & { id: number };

/**
 * A quiz's questions in order, each with its answers, moved, opened for editing (`?question=`) or deleted;
 * the one being edited is its form instead.
 */
export function QuestionList({
  base,
  questions,
  editing,
  deleteErrors,
  lastResult,
}: {
  /** The quiz's page. */
  base: string;
  questions: EditorQuestion[];
  /** The question being edited. */
  editing: number | null;
  deleteErrors: string[] | undefined;
  /** The server's reply to the edited question's form. */
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  return (
    <div className="panel" data-testid="questions">
      <h3>{t("quiz.admin.questionsTitle", { count: questions.length })}</h3>
      <FormMessage>{deleteErrors?.map((e) => t(e)).join(" ")}</FormMessage>
      {questions.length === 0 ? <p className="empty-state">{t("quiz.admin.noQuestions")}</p> : null}
      {questions.map((q, i) =>
        editing === q.id ? (
          <QuestionForm key={q.id} values={q} lastResult={lastResult} cancelTo={base} />
        ) : (
          <QuestionSummary key={q.id} question={q} index={i} last={i === questions.length - 1} />
        ),
      )}
    </div>
  );
}

/** One question of the list: its number, prompt, type and answers, with its buttons. */
function QuestionSummary({ question: q, index: i, last }: { question: EditorQuestion; index: number; last: boolean }) {
  const { t } = useTranslation();
  return (
    <article className="quiz-editor-question" data-question={q.prompt}>
      <header>
        <strong>
          {i + 1}. {q.prompt}
        </strong>
        <span>
          <span className="badge">{t(`quiz.types.${q.type}`)}</span> <MoveButtons id={q.id} first={i === 0} last={last} />{" "}
          <Link to={`?question=${q.id}`} className="button">
            {t("quiz.admin.edit")}
          </Link>{" "}
          <Form method="post" className="inline-form">
            <input type="hidden" name="question_id" value={q.id} />
            <button type="submit" name="intent" value="delete-question" className="danger">
              {t("quiz.admin.deleteQuestion")}
            </button>
          </Form>
        </span>
      </header>
      <p className="answers">
        {q.type === "text"
          ? `${t("quiz.player.acceptedAnswers")}: ${q.accepted.join(", ")}`
          : q.type === "true_false"
            ? `${t("quiz.player.correctChoice")}: ${t(q.correct_answer ? "quiz.player.true" : "quiz.player.false")}`
            : q.options.map((o) => `${o.correct ? "✓" : "·"} ${o.text}`).join("   ")}
      </p>
    </article>
  );
}
