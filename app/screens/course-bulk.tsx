import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { BulkConfirmForm, BulkDetail, BulkJobOutcome, bulkJobMeta, BulkRefused, BulkStart, BulkTick } from "~/components/bulk/bulk-parts";
import { ErrorList } from "~/components/form";
import { Heading } from "~/components/heading";
import { COURSE_BULK_ACTIONS } from "~/models/forms/course-bulk";
import { useTranslation } from "~/utils/translate";
import type { courseBulkJobLoader, courseBulkLoader } from "./course-bulk.server";

/**
 * The screens of a bulk action on courses (issue 50; app/screens/course-bulk.server.ts), built once for /admin and
 * /dashboard from the parts bulk actions on people use too (app/components/bulk/bulk-parts.tsx): the bar under the
 * courses list, the page that names how many courses it reaches and asks what it needs, and the job's page.
 */
export const COURSE_BULK_FORM = "course-bulk";

/** The courses list's bar: an action, and the ticked rows or every course the list's filters match. */
export function CourseBulkStart({
  base,
  total,
  filters,
  locale,
}: {
  base: string;
  total: number;
  filters: Record<string, string | undefined>;
  locale: string;
}) {
  return (
    <BulkStart
      formId={COURSE_BULK_FORM}
      action={`${base}/bulk`}
      prefix="courseBulk"
      actions={COURSE_BULK_ACTIONS}
      total={total}
      filters={filters}
      locale={locale}
    />
  );
}

/** The box that ticks one course for the bar's form. */
export function CourseTick({ id, title }: { id: number; title: string }) {
  const { t } = useTranslation();
  return <BulkTick formId={COURSE_BULK_FORM} id={id} label={t("courseBulk.tick", { title })} />;
}

type Loaded = Extract<Awaited<ReturnType<ReturnType<typeof courseBulkLoader>>>, { ok: true }>;
type Reply = { error?: Record<string, string[] | null> } | undefined;

/** What the action needs: the category to move to, or the tick that says what deleting takes with it. */
function ActionFields({ data, reply }: { data: Loaded; reply: Reply }) {
  const { t } = useTranslation();
  const errors = (name: string) => reply?.error?.[name] ?? undefined;
  if (data.action === "move")
    return (
      <div className="field">
        <label htmlFor="bulk-category">{t("courseBulk.category")}</label>
        <select id="bulk-category" name="bulkCategory" data-testid="bulk-category">
          {data.categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
          <option value="none">{t("courseBulk.noCategory")}</option>
        </select>
        <ErrorList errors={errors("bulkCategory")} />
      </div>
    );
  if (data.action === "delete")
    return (
      <div className="field">
        <p>{t("courseBulk.deleteWarning")}</p>
        <label>
          <input type="checkbox" name="confirmDelete" value="yes" required data-testid="bulk-confirm-delete" />{" "}
          {t("courseBulk.confirmDelete", { count: data.count, n: new Intl.NumberFormat(data.locale).format(data.count) })}
        </label>
        <ErrorList errors={errors("confirmDelete")} />
      </div>
    );
  return null;
}

/** The confirmation: how many courses, what the action needs, and the button that starts it. */
export function CourseBulk() {
  const { t } = useTranslation();
  const data = useLoaderData<ReturnType<typeof courseBulkLoader>>();
  const reply = useActionData<Reply>();
  if (!data.ok) return <BulkRefused title={t("courseBulk.title")} error={data.error} back={data.back} backLabel={t("courseBulk.back")} />;
  const n = new Intl.NumberFormat(data.locale).format(data.count);
  return (
    <BulkConfirmForm
      heading={t(`courseBulk.actions.${data.action}`)}
      reach={t(data.scope === "all" ? "courseBulk.reachAll" : "courseBulk.reachTicked", { count: data.count, n })}
      apply={t(data.action === "delete" ? "courseBulk.applyDelete" : "courseBulk.apply", { count: data.count, n })}
      selection={data}
      formErrors={reply?.error?.[""] ?? null}
      back={data.back}
      danger={data.action === "delete"}
    >
      <ActionFields data={data} reply={reply} />
    </BulkConfirmForm>
  );
}

/** Without JavaScript the job's page refreshes itself every two seconds while it runs. */
export const courseBulkJobMeta = bulkJobMeta;

export function CourseBulkJob() {
  const { t } = useTranslation();
  const { job, detail, back, locale } = useLoaderData<ReturnType<typeof courseBulkJobLoader>>();
  return (
    <section data-testid="bulk-job" data-status={job.status}>
      <div className="toolbar">
        <Heading>{t(`courseBulk.actions.${job.action}`)}</Heading>
        <Link to={back}>{t("courseBulk.back")}</Link>
      </div>
      <div className="panel">
        {detail.category !== null ? (
          <dl className="bulk-detail">
            <BulkDetail term={t("courseBulk.category")} value={detail.category || t("courseBulk.noCategory")} />
          </dl>
        ) : null}
        <BulkJobOutcome job={job} prefix="courseBulk" locale={locale} />
      </div>
    </section>
  );
}
