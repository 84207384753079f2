import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { useZodForm } from "~/components/form";
import { questionFormSchema, quizSettingsFormSchema } from "~/models/forms/quizzes";
import { parseForm } from "~/utils/form";
import { QuestionForm } from "~/components/quiz/question-form";
import { QuestionList } from "~/components/quiz/question-list";
import { QuizLearnerResults } from "~/components/quiz/quiz-learner-results";
import { QuizUsage } from "~/components/quiz/quiz-usage";
import { courseResource } from "~/models/course.server";
import { quizResultsCsv } from "~/models/quiz-csv.server";
import { addQuestion, deleteQuestion, moveQuestion, questionEditorView, updateQuestion, updateQuiz } from "~/models/quiz-authoring.server";
import { attachQuiz, linkQuizLesson, quizUsage, unlinkedQuizLessons } from "~/models/quiz-lessons.server";
import { listQuestions } from "~/models/quiz.server";
import { quizResults } from "~/models/quiz-results.server";
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
  const { t } = useTranslation();
  const data = useLoaderData<Awaited<ReturnType<ReturnType<typeof quizLoader>>>>();
  const action = useActionData<{ intent: string; errors: Record<string, string[]>; result?: SubmissionResult<string[]> }>();
  const errorsFor = (intent: string): Record<string, string[] | undefined> => (action?.intent === intent ? action.errors : {});
  const resultFor = (intent: string) => (action?.intent === intent ? action.result : undefined);
  const [settingsForm, settings] = useZodForm({
    id: "quiz-settings",
    schema: quizSettingsFormSchema,
    lastResult: resultFor("settings"),
    defaultValue: quizSettingsDefaults(data.quiz),
  });
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

      <QuestionList
        base={data.base}
        questions={data.questions}
        editing={data.editing}
        deleteErrors={errorsFor("delete-question").questions}
        lastResult={resultFor("save-question")}
      />
      {/* A new key after each added question gives an empty form (client navigations keep components). */}
      {data.editing ? null : <QuestionForm key={`add-${data.questions.length}`} lastResult={resultFor("add-question")} />}

      <QuizUsage
        coursesBase={data.coursesBase}
        usage={data.usage}
        courses={data.courses}
        unlinked={data.unlinked}
        attachErrors={errorsFor("attach").course_id}
      />
      <QuizLearnerResults base={data.base} learners={data.learners} attemptCount={data.attemptCount} />
      <div className="panel danger-zone">
        <Link to={`${data.base}/delete`} className="button danger" data-testid="delete-quiz">
          {t("quiz.admin.delete")}
        </Link>
      </div>
    </section>
  );
}
