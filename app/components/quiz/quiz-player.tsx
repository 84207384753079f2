import { Form, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { AttemptView, QuizPlayerState } from "~/models/quiz-player.server";
import { QuizResult } from "./quiz-result";

/**
 * The quiz inside the lesson player and on its own page (docs/product.md §4 quiz states): failed to load, not
 * started, in progress (one question at a time, previous and next), submit (with a confirmation when
 * questions are unanswered), then passed or failed, and a retake. Every step is a form post to
 * `/quizzes/{id}` that redirects back, so it all works without JavaScript; with it, Remix submits the
 * forms without a full reload and the player shows "loading" while a step is on its way. Answers are kept
 * on the server as the learner goes, so a reload or another device resumes the attempt.
 */
export interface QuizPlayerProps {
  data: { failed: boolean; quizId: number | null; state: QuizPlayerState | null };
  /** Where each step returns to (the page showing the player). */
  returnTo: string;
  lessonId: number | null;
  /** Set when the learner asked to submit with questions unanswered. */
  confirm: boolean;
  /** A refusal code from the last step (deadline passed, no attempts left…). */
  error: string | null;
}

export const QUIZ_REFUSALS = [
  "deadline_passed",
  "no_attempts_left",
  "already_passed",
  "no_questions",
  "ended",
  "not_found",
  "invalid_answer",
];

export function QuizPlayer({ data, returnTo, lessonId, confirm, error }: QuizPlayerProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  if (data.failed || !data.state || !data.quizId) return <QuizLoadFailed />;
  const { state } = data;
  const action = `/quizzes/${data.quizId}`;
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith(action);
  const hidden = (
    <>
      <input type="hidden" name="returnTo" value={returnTo} />
      {lessonId ? <input type="hidden" name="lesson_id" value={lessonId} /> : null}
    </>
  );
  return (
    <section
      className="quiz"
      data-testid="quiz"
      aria-busy={busy || undefined}
      data-state={state.open ? "in_progress" : state.last ? state.last.status : "not_started"}
    >
      {error && QUIZ_REFUSALS.includes(error) ? (
        <p className="form-message quiz-refusal" role="alert" data-testid="quiz-error">
          {t(`quiz.refusal.${error}`)}
        </p>
      ) : null}
      {busy ? (
        <p className="quiz-loading" role="status" data-testid="quiz-loading">
          {t("quiz.player.loading")}
        </p>
      ) : null}
      {state.open ? (
        <InProgress attempt={state.open} action={action} hidden={hidden} confirm={confirm} busy={Boolean(busy)} />
      ) : state.last ? (
        <>
          <QuizResult attempt={state.last} />
          <Retake state={state} action={action} hidden={hidden} />
        </>
      ) : (
        <Intro state={state} action={action} hidden={hidden} />
      )}
    </section>
  );
}

/** docs/product.md §8: 'Something went wrong' and 'The quiz could not be loaded. Please refresh your browser window and try again.' */
export function QuizLoadFailed() {
  const { t } = useTranslation();
  return (
    <section className="quiz quiz-failed" data-testid="quiz-failed" role="alert">
      <h2>{t("quiz.player.failedTitle")}</h2>
      <p>{t("quiz.player.failedBody")}</p>
    </section>
  );
}

function Facts({ state }: { state: QuizPlayerState }) {
  const { t, i18n } = useTranslation();
  const q = state.quiz;
  const deadline = q.deadline
    ? new Intl.DateTimeFormat(i18n.language === "en" ? "da" : i18n.language, { dateStyle: "medium", timeStyle: "short" }).format(
        new Date(q.deadline),
      )
    : null;
  return (
    <dl className="quiz-facts" data-testid="quiz-facts">
      <div>
        <dt>{t("quiz.player.questions")}</dt>
        <dd>{q.question_count}</dd>
      </div>
      <div>
        <dt>{t("quiz.player.toPass")}</dt>
        <dd>{t("quiz.player.passRule", { min: Math.min(q.pass_min, q.question_count), count: q.question_count })}</dd>
      </div>
      <div>
        <dt>{t("quiz.player.deadline")}</dt>
        <dd>{deadline ?? t("quiz.player.noDeadline")}</dd>
      </div>
      <div>
        <dt>{t("quiz.player.attemptsLeft")}</dt>
        <dd data-testid="attempts-left">{q.attempts_left === null ? t("quiz.player.unlimited") : q.attempts_left}</dd>
      </div>
    </dl>
  );
}

function Intro({ state, action, hidden }: { state: QuizPlayerState; action: string; hidden: JSX.Element }) {
  const { t } = useTranslation();
  return (
    <div className="quiz-intro" data-testid="quiz-intro">
      <h2>{state.quiz.title}</h2>
      {state.quiz.description ? <p className="quiz-description">{state.quiz.description}</p> : null}
      <Facts state={state} />
      {state.can_start ? (
        <Form method="post" action={action} preventScrollReset>
          {hidden}
          <button type="submit" name="intent" value="start" className="primary" data-testid="quiz-start">
            {t("quiz.player.start")}
          </button>
        </Form>
      ) : state.refusal ? (
        <p className="form-message">{t(`quiz.refusal.${state.refusal}`)}</p>
      ) : state.quiz.question_count === 0 ? (
        <p className="form-message">{t("quiz.refusal.no_questions")}</p>
      ) : null}
    </div>
  );
}

function Retake({ state, action, hidden }: { state: QuizPlayerState; action: string; hidden: JSX.Element }) {
  const { t } = useTranslation();
  if (state.last?.passed) return null;
  return (
    <div className="quiz-retake">
      <Facts state={state} />
      {state.can_start ? (
        <Form method="post" action={action} preventScrollReset>
          {hidden}
          <button type="submit" name="intent" value="start" className="primary" data-testid="quiz-retake">
            {t("quiz.player.retake")}
          </button>
        </Form>
      ) : state.refusal ? (
        <p className="form-message" data-testid="quiz-no-retake">
          {t(`quiz.refusal.${state.refusal}`)}
        </p>
      ) : null}
    </div>
  );
}

function InProgress({
  attempt,
  action,
  hidden,
  confirm,
  busy,
}: {
  attempt: AttemptView;
  action: string;
  hidden: JSX.Element;
  confirm: boolean;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const index = Math.min(attempt.current, attempt.questions.length - 1);
  const question = attempt.questions[index];
  const total = attempt.questions.length;
  const unanswered = total - attempt.answered_count;
  const last = index === total - 1;
  return (
    // The key makes React render fresh inputs for each question (their defaults come from the server).
    <Form
      method="post"
      action={action}
      className="quiz-question"
      key={`${attempt.id}-${question.id}`}
      data-testid="quiz-question"
      preventScrollReset
    >
      {hidden}
      <input type="hidden" name="attempt_id" value={attempt.id} />
      <input type="hidden" name="question_id" value={question.id} />
      <div className="quiz-progress">
        <span data-testid="quiz-position">{t("quiz.player.questionOf", { n: index + 1, total })}</span>
        <span className="quiz-progress-bar" aria-hidden="true">
          <span style={{ width: `${Math.round((100 * (index + 1)) / total)}%` }} />
        </span>
      </div>
      <fieldset>
        <legend className="quiz-prompt">{question.prompt}</legend>
        <p className="quiz-hint">{t(`quiz.player.hint.${question.type}`)}</p>
        <AnswerInput question={question} />
      </fieldset>
      {confirm && unanswered > 0 ? (
        <div className="quiz-confirm" role="alertdialog" aria-labelledby="quiz-confirm-title" data-testid="quiz-confirm">
          <p id="quiz-confirm-title">{t("quiz.player.confirmUnanswered", { count: unanswered })}</p>
          <input type="hidden" name="confirm" value="1" />
          <button type="submit" name="intent" value="submit" className="primary" data-testid="quiz-confirm-submit" disabled={busy}>
            {t("quiz.player.submitAnyway")}
          </button>
        </div>
      ) : null}
      <div className="quiz-nav">
        <button type="submit" name="go" value={index - 1} disabled={index === 0 || busy} data-testid="quiz-previous">
          ← {t("quiz.player.previous")}
        </button>
        <span className="quiz-answered">{t("quiz.player.answered", { n: attempt.answered_count, total })}</span>
        {last ? null : (
          <button type="submit" name="go" value={index + 1} className="primary" disabled={busy} data-testid="quiz-next">
            {t("quiz.player.next")} →
          </button>
        )}
        <button type="submit" name="intent" value="submit" className={last ? "primary" : ""} disabled={busy} data-testid="quiz-submit">
          {t("quiz.player.submit")}
        </button>
      </div>
    </Form>
  );
}

function AnswerInput({ question }: { question: AttemptView["questions"][number] }) {
  const { t } = useTranslation();
  const chosen = new Set(question.answer?.choices ?? []);
  if (question.type === "text") {
    return (
      <label className="quiz-text">
        <span className="visually-hidden">{t("quiz.player.yourAnswer")}</span>
        <input
          name="text"
          defaultValue={question.answer?.text ?? ""}
          maxLength={500}
          autoComplete="off"
          placeholder={t("quiz.player.typeAnswer")}
          data-testid="quiz-text"
        />
      </label>
    );
  }
  const multiple = question.type === "multiple";
  return (
    <ul className="quiz-options">
      {question.options.map((o) => (
        <li key={o.id}>
          <label className="quiz-option">
            <input
              type={multiple ? "checkbox" : "radio"}
              name="choice"
              value={o.id}
              defaultChecked={chosen.has(o.id)}
              data-testid={`quiz-option-${o.id}`}
            />
            <span>{question.type === "true_false" ? t(`quiz.player.${o.id}`) : o.text}</span>
          </label>
        </li>
      ))}
    </ul>
  );
}
