import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ErrorList, FormMessage, useZodForm } from "~/components/form";
import { questionFormSchema, quizSettingsFormSchema } from "~/models/forms/quizzes";
import { parseForm } from "~/utils/form";
import { MoveButtons } from "~/components/move-buttons";
import { QuestionForm, type QuestionValues } from "~/components/quiz/question-form";
import { courseResource } from "~/models/course.server";
import { quizResultsCsv } from "~/models/quiz-csv.server";
import {
  addQuestion,
  attachQuiz,
  deleteQuestion,
  linkQuizLesson,
  listQuestions,
  moveQuestion,
  questionEditorView,
  quizResults,
  quizUsage,
  unlinkedQuizLessons,
  updateQuestion,
  updateQuiz,
} from "~/models/quiz.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { moveIntent, readForm, text } from "~/utils/form-data.server";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";
import { quizFrom, quizSettingsDefaults, quizSettingsFrom, quizzesBase, QuizSettingsFields } from "./organization-quizzes";

/**
 * One quiz (issue 10): its settings, its questions in order (add, edit, move, delete), the courses it is
 * a lesson of (attach to another), and the learners' results with a CSV export. Shared by the admin and
 * dashboard areas.
 */
export function quizLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:quiz" }, (m) => {
      const quiz = quizFrom(m, params.quizId);
      const questions = listQuestions(m.db, quiz.id).map(questionEditorView);
      const editing = Number(new URL(request.url).searchParams.get("question")) || null;
      const courses = (
        courseResource.list(m.db, m.viewer, { page: 1, perPage: 500 }, {}) as {
          items: Array<{ id: number; title: string }>;
        }
      ).items;
      const results = quizResults(m.db, quiz.id);
      return {
        base: `${quizzesBase(m)}/${quiz.id}`,
        coursesBase: `${m.base}/courses`,
        quiz: {
          id: quiz.id,
          title: quiz.title,
          description: quiz.description,
          deadline: quiz.deadline?.toISOString() ?? null,
          pass_min: quiz.passMin,
          max_attempts: quiz.maxAttempts,
        },
        questions,
        editing: questions.some((q) => q.id === editing) ? editing : null,
        usage: quizUsage(m.db, quiz.id),
        unlinked: unlinkedQuizLessons(m.db),
        courses: courses.map((c) => ({ id: c.id, title: c.title })),
        learners: results.learners.map((l) => ({ ...l, lastAt: l.lastAt.toISOString() })),
        attemptCount: results.attempts.length,
      };
    });
}

export function quizAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:quiz" }, async (m) => {
      const quiz = quizFrom(m, params.quizId);
      const here = `${quizzesBase(m)}/${quiz.id}`;
      const formData = await readForm(request, context);
      const move = moveIntent(formData);
      if (move) {
        moveQuestion(m.db, quiz.id, move.id, { direction: move.direction });
        return redirect(here);
      }
      const intent = text(formData, "intent");
      if (intent === "add-question" || intent === "save-question") {
        const submission = parseForm(formData, questionFormSchema);
        if (submission.status !== "success") return json({ intent, errors: {}, result: submission.reply() }, { status: 400 });
        if (intent === "add-question") addQuestion(m.db, quiz.id, submission.value);
        else if (!updateQuestion(m.db, quiz.id, Number(text(formData, "question_id")), submission.value))
          throw new Response("Not Found", { status: 404 });
        return redirectWithFlash(here, "quiz.flash.questionSaved");
      }
      if (intent === "delete-question") {
        const result = deleteQuestion(m.db, quiz.id, Number(text(formData, "question_id")));
        if (!result.ok) return json({ intent, errors: { questions: [result.message] } }, { status: 400 });
        return redirectWithFlash(here, "quiz.flash.questionDeleted");
      }
      if (intent === "link") {
        const result = linkQuizLesson(m.db, quiz.id, Number(text(formData, "lesson_id")) || -1);
        if (!result.ok) return json({ intent: "attach", errors: { course_id: [result.message] } }, { status: 400 });
        return redirectWithFlash(here, "quiz.flash.attached");
      }
      if (intent === "attach") {
        const result = attachQuiz(m.db, quiz.id, Number(text(formData, "course_id")) || -1);
        if (!result.ok) return json({ intent, errors: { course_id: [result.message] } }, { status: 400 });
        return redirectWithFlash(here, "quiz.flash.attached");
      }
      const submission = quizSettingsFrom(formData);
      if (submission.status !== "success") return json({ intent: "settings", errors: {}, result: submission.reply() }, { status: 400 });
      const saved = updateQuiz(m.db, quiz.id, submission.value);
      if (saved && !saved.ok)
        return json(
          { intent: "settings", errors: {}, result: submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }) },
          { status: 400 },
        );
      return redirectWithFlash(here, "quiz.flash.saved");
    });
}

export function exportQuizLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "read:quiz" }, (m) => {
      const quiz = quizFrom(m, params.quizId);
      return quizResultsCsv(quiz, quizResults(m.db, quiz.id));
    });
}

export function EditQuiz() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<Awaited<ReturnType<ReturnType<typeof quizLoader>>>>();
  const action = useActionData<{ intent: string; errors: Record<string, string[]>; result?: SubmissionResult<string[]> }>();
  const errorsFor = (intent: string) => (action?.intent === intent ? action.errors : {});
  const resultFor = (intent: string) => (action?.intent === intent ? action.result : undefined);
  const [settingsForm, settings] = useZodForm({
    id: "quiz-settings",
    schema: quizSettingsFormSchema,
    lastResult: action?.intent === "settings" ? action.result : undefined,
    defaultValue: quizSettingsDefaults(data.quiz),
  });
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language === "en" ? "da" : i18n.language, {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: "UTC",
    }).format(new Date(iso));
  const attached = new Set(data.usage.map((u) => u.courseId));
  return (
    <section className="quiz-admin">
      <p>
        <Link to={data.base.replace(/\/\d+$/, "")}>← {t("quiz.admin.title")}</Link>
      </p>
      <h2>{data.quiz.title}</h2>
      <Form method="post" className="panel" {...getFormProps(settingsForm)}>
        <h3>{t("quiz.admin.settings")}</h3>
        <QuizSettingsFields fields={settings} questionCount={data.questions.length} />
        <button type="submit" name="intent" value="settings" className="primary" data-testid="save-quiz">
          {t("quiz.admin.save")}
        </button>
      </Form>

      <div className="panel" data-testid="questions">
        <h3>{t("quiz.admin.questionsTitle", { count: data.questions.length })}</h3>
        <FormMessage>
          {errorsFor("delete-question")
            .questions?.map((e) => t(e))
            .join(" ")}
        </FormMessage>
        {data.questions.length === 0 ? <p className="empty-state">{t("quiz.admin.noQuestions")}</p> : null}
        {data.questions.map((q, i) =>
          data.editing === q.id ? (
            <QuestionForm key={q.id} values={q as QuestionValues} lastResult={resultFor("save-question")} cancelTo={data.base} />
          ) : (
            <article key={q.id} className="quiz-editor-question" data-question={q.prompt}>
              <header>
                <strong>
                  {i + 1}. {q.prompt}
                </strong>
                <span>
                  <span className="badge">{t(`quiz.types.${q.type}`)}</span>{" "}
                  <MoveButtons id={q.id} first={i === 0} last={i === data.questions.length - 1} />{" "}
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
          ),
        )}
      </div>
      {/* A new key after each added question gives an empty form (client navigations keep components). */}
      {data.editing ? null : <QuestionForm key={`add-${data.questions.length}`} lastResult={resultFor("add-question")} />}

      <div className="panel" data-testid="quiz-usage">
        <h3>{t("quiz.admin.coursesTitle")}</h3>
        {data.usage.length === 0 ? <p className="empty-state">{t("quiz.admin.notAttached")}</p> : null}
        <ul>
          {data.usage.map((u) => (
            <li key={u.lessonId}>
              <Link to={`${data.coursesBase}/${u.courseId}`}>{u.courseTitle}</Link> — {u.lessonTitle}
              {u.allowQuizzes ? null : <span className="badge">{t("quiz.admin.quizzesOff")}</span>}
            </li>
          ))}
        </ul>
        {data.courses.some((c) => !attached.has(c.id)) ? (
          <Form method="post" className="subform">
            <label>
              <span className="visually-hidden">{t("quiz.admin.chooseCourse")}</span>
              <select name="course_id" data-testid="attach-course">
                {data.courses
                  .filter((c) => !attached.has(c.id))
                  .map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.title}
                    </option>
                  ))}
              </select>
            </label>{" "}
            <button type="submit" name="intent" value="attach" data-testid="attach">
              {t("quiz.admin.attach")}
            </button>
            <ErrorList errors={errorsFor("attach").course_id} />
          </Form>
        ) : null}
        {data.unlinked.length ? (
          <Form method="post" className="subform">
            <label>
              <span className="visually-hidden">{t("quiz.admin.chooseLesson")}</span>
              <select name="lesson_id" data-testid="link-lesson">
                {data.unlinked.map((l) => (
                  <option key={l.lessonId} value={l.lessonId}>
                    {l.courseTitle} — {l.lessonTitle}
                  </option>
                ))}
              </select>
            </label>{" "}
            <button type="submit" name="intent" value="link" data-testid="link">
              {t("quiz.admin.link")}
            </button>
          </Form>
        ) : null}
      </div>

      <div className="panel" data-testid="quiz-results">
        <div className="toolbar">
          <h3>{t("quiz.admin.resultsTitle")}</h3>
          {data.attemptCount ? (
            <a href={`${data.base}/export`} className="button" download data-testid="export">
              {t("quiz.admin.export")}
            </a>
          ) : null}
        </div>
        {data.learners.length === 0 ? (
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
              {data.learners.map((l) => (
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
      <div className="panel danger-zone">
        <Link to={`${data.base}/delete`} className="button danger" data-testid="delete-quiz">
          {t("quiz.admin.delete")}
        </Link>
      </div>
    </section>
  );
}
