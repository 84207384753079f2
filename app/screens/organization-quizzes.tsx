import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation, type Translate } from "~/utils/translate";
import { ConfirmDelete } from "~/components/confirm-delete";
import { controlProps, ErrorList, useZodForm } from "~/components/form";
import { quizSettingsFormSchema } from "~/models/forms/quizzes";
import { createQuiz, deleteQuiz } from "~/models/quiz-authoring.server";
import { getQuiz } from "~/models/quiz.server";
import { quizList } from "~/models/quiz-list.server";
import { QUIZ_LIST } from "~/models/forms/quiz-list";
import { ListControls, ListPager, type ListFilter } from "~/components/list/list-controls";
import { isWholeList, listSearch, parseListQuery } from "~/utils/list-query";
import { formatDate } from "~/utils/dates";
import { formatNumber } from "~/utils/numbers";
import { dateLocaleFor } from "./analytics.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { readForm } from "~/utils/form-data.server";

/**
 * Quizzes of one organization (issue 10): a searchable list, the create page and the delete confirmation,
 * mounted under /dashboard/organizations/{id}/quizzes and /admin/organizations/{id}/quizzes. The quiz's
 * own screen (settings, questions, courses, results) is organization-quiz.tsx.
 */
export const quizzesBase = (m: Managed) => `${m.base}/quizzes`;

/** The quizzes list (issue 50): searched, filtered, sorted and paged from its address (app/utils/list-query.ts). */
export function quizzesLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:quiz" }, (m) => {
      const { query, errors } = parseListQuery(new URL(request.url), QUIZ_LIST);
      const list = quizList(m.db, query);
      return {
        base: quizzesBase(m),
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        filtered: !isWholeList(query, QUIZ_LIST),
        locale: dateLocaleFor(m.viewer),
        quizzes: list.rows.map((r) => ({
          id: r.quiz.id,
          title: r.quiz.title,
          questions: r.questions,
          attempts: r.attempts,
          lessons: r.lessons,
          deadline: r.quiz.deadline?.toISOString() ?? null,
        })),
      };
    });
}

type QuizzesData = Awaited<ReturnType<ReturnType<typeof quizzesLoader>>>;

export function QuizzesList() {
  const { t } = useTranslation();
  const data = useLoaderData<QuizzesData>();
  return (
    <section>
      <div className="toolbar">
        <h2>{t("quiz.admin.title")}</h2>
        <Link to={`${data.base}/create`} className="button primary" data-testid="new-quiz">
          {t("quiz.admin.create")}
        </Link>
      </div>
      {data.page.total === 0 && !data.filtered ? (
        <p className="empty-state panel">{t("quiz.admin.empty")}</p>
      ) : (
        <>
          <ListControls
            id="quizzes-list"
            label={t("contentLists.quizzes.label")}
            searchLabel={t("quiz.admin.name")}
            query={data.query}
            filters={quizFilters(t)}
            sorts={QUIZ_LIST.sorts.map((s) => ({ value: s, label: t(`contentLists.quizzes.sorts.${s}`) }))}
            errors={data.errors}
            clear={data.base}
          />
          {data.quizzes.length > 0 && <QuizzesTable data={data} />}
          <ListPager
            {...data.page}
            shown={data.quizzes.length}
            locale={data.locale}
            link={(n) => `${data.base}${listSearch(data.query, QUIZ_LIST, { page: n })}`}
            label={t("lists.pages")}
          />
        </>
      )}
    </section>
  );
}

function QuizzesTable({ data }: { data: QuizzesData }) {
  const { t } = useTranslation();
  return (
    <table className="table" data-testid="quizzes">
      <thead>
        <tr>
          <th>{t("quiz.admin.name")}</th>
          <th>{t("quiz.admin.questions")}</th>
          <th>{t("quiz.admin.usedIn")}</th>
          <th>{t("quiz.admin.attempts")}</th>
          <th>{t("quiz.admin.deadline")}</th>
        </tr>
      </thead>
      <tbody>
        {data.quizzes.map((q) => (
          <tr key={q.id} data-quiz={q.title}>
            <td>
              <Link to={`${data.base}/${q.id}`}>{q.title}</Link>
            </td>
            <td>{formatNumber(q.questions, data.locale)}</td>
            <td>{t("quiz.admin.lessonCount", { count: q.lessons })}</td>
            <td>{formatNumber(q.attempts, data.locale)}</td>
            <td>{q.deadline ? formatDate(q.deadline, { locale: data.locale, dateStyle: "medium", timeZone: "UTC" }) : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The quizzes list's filters, with their choices. */
function quizFilters(t: Translate): ListFilter[] {
  return [
    {
      name: "use",
      label: t("contentLists.quizzes.use"),
      any: t("contentLists.quizzes.anyUse"),
      options: (["used", "unused"] as const).map((v) => ({ value: v, label: t(`contentLists.quizzes.${v}`) })),
    },
    {
      name: "deadline",
      label: t("quiz.admin.deadline"),
      any: t("contentLists.quizzes.anyDeadline"),
      options: (["open", "passed", "none"] as const).map((v) => ({ value: v, label: t(`contentLists.quizzes.deadlines.${v}`) })),
    },
  ];
}

/** The settings fields as posted by the create and edit forms (datetime-local deadlines are UTC). */
export function quizSettingsFrom(formData: FormData) {
  return parseForm(formData, quizSettingsFormSchema);
}

/** The settings form's values: the quiz's own (a deadline as the datetime-local field shows it), or none. */
export function quizSettingsDefaults(values: QuizSettingsValues) {
  return {
    title: values.title ?? "",
    description: values.description ?? "",
    deadline: values.deadline ? values.deadline.slice(0, 16) : "",
    pass_min: String(values.pass_min ?? 0),
    max_attempts: values.max_attempts ? String(values.max_attempts) : "",
  };
}

export function createQuizLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:quiz" }, (m) => ({ base: quizzesBase(m) }));
}

export function createQuizAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:quiz" }, async (m) => {
      const submission = quizSettingsFrom(await readForm(request, context));
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const created = createQuiz(m.db, { ...submission.value, questions: [] });
      if (!created.ok) return json(submission.reply({ fieldErrors: { [created.field]: [created.message] } }), { status: 400 });
      return redirectWithFlash(`${quizzesBase(m)}/${created.value.id}`, "quiz.flash.created");
    });
}

export function CreateQuiz() {
  const { t } = useTranslation();
  const { base } = useLoaderData<{ base: string }>();
  const [form, fields] = useZodForm({
    schema: quizSettingsFormSchema,
    lastResult: useActionData<SubmissionResult<string[]>>(),
    defaultValue: quizSettingsDefaults({}),
  });
  return (
    <section className="quiz-admin">
      <p>
        <Link to={base}>← {t("quiz.admin.title")}</Link>
      </p>
      <h2>{t("quiz.admin.create")}</h2>
      <Form method="post" className="panel" {...getFormProps(form)}>
        <QuizSettingsFields fields={fields} />
        <p className="hint">{t("quiz.admin.passAfterQuestions")}</p>
        <button type="submit" className="primary" data-testid="save-quiz">
          {t("quiz.admin.createButton")}
        </button>
      </Form>
    </section>
  );
}

export interface QuizSettingsValues {
  title?: string;
  description?: string;
  deadline?: string | null;
  pass_min?: number;
  max_attempts?: number | null;
  question_count?: number;
}

export type QuizSettingsMeta = ReturnType<typeof useZodForm<typeof quizSettingsFormSchema>>[1];

/** The settings' fields; the pass requirement only once the quiz has questions to count (`questionCount`). */
export function QuizSettingsFields({ fields, questionCount }: { fields: QuizSettingsMeta; questionCount?: number }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="field">
        <label htmlFor="quiz-title">{t("quiz.admin.name")}</label>
        <input {...controlProps(fields.title, "quiz-title")} key={fields.title.key} maxLength={200} required />
        <ErrorList id="quiz-title-error" errors={fields.title.errors} />
      </div>
      <div className="field">
        <label htmlFor="quiz-description">{t("quiz.admin.description")}</label>
        <textarea {...controlProps(fields.description, "quiz-description")} key={fields.description.key} maxLength={10000} rows={3} />
        <ErrorList id="quiz-description-error" errors={fields.description.errors} />
      </div>
      <div className="field-row">
        <div className="field">
          <label htmlFor="quiz-deadline">{t("quiz.admin.deadlineUtc")}</label>
          <input {...controlProps(fields.deadline, "quiz-deadline")} key={fields.deadline.key} type="datetime-local" />
          <ErrorList id="quiz-deadline-error" errors={fields.deadline.errors} />
        </div>
        {questionCount !== undefined ? (
          <div className="field">
            <label htmlFor="quiz-pass-min">{t("quiz.admin.passMin", { count: questionCount })}</label>
            <input
              {...controlProps(fields.pass_min, "quiz-pass-min")}
              key={fields.pass_min.key}
              type="number"
              min={0}
              max={questionCount}
              required
            />
            <ErrorList id="quiz-pass-min-error" errors={fields.pass_min.errors} />
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="quiz-max-attempts">{t("quiz.admin.maxAttempts")}</label>
          <input
            {...controlProps(fields.max_attempts, "quiz-max-attempts")}
            key={fields.max_attempts.key}
            type="number"
            min={1}
            placeholder={t("quiz.admin.unlimited")}
          />
          <ErrorList id="quiz-max-attempts-error" errors={fields.max_attempts.errors} />
        </div>
      </div>
    </>
  );
}

export function quizFrom(m: Managed, id: string | undefined) {
  const quiz = /^\d{1,15}$/.test(id ?? "") ? getQuiz(m.db, Number(id)) : undefined;
  if (!quiz) throw new Response("Not Found", { status: 404 });
  return quiz;
}

export function deleteQuizLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:quiz" }, (m) => {
      const quiz = quizFrom(m, params.quizId);
      return { name: quiz.title, back: `${quizzesBase(m)}/${quiz.id}` };
    });
}

export function deleteQuizAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:quiz" }, async (m) => {
      const quiz = quizFrom(m, params.quizId);
      await readForm(request, context);
      deleteQuiz(m.db, quiz.id);
      return redirectWithFlash(quizzesBase(m), "quiz.flash.deleted");
    });
}

export function DeleteQuiz() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}
