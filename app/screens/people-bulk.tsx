import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { BulkConfirmForm, BulkDetail, BulkJobOutcome, bulkJobMeta, BulkRefused, BulkStart, BulkTick } from "~/components/bulk/bulk-parts";
import { ErrorList } from "~/components/form";
import { Heading } from "~/components/heading";
import { PEOPLE_BULK_CHOICES } from "~/models/forms/people-bulk";
import { useTranslation } from "~/utils/translate";
import type { peopleBulkJobLoader, peopleBulkLoader } from "./people-bulk.server";

/**
 * The screens of a bulk action on people (issue 50; app/screens/people-bulk.server.ts): the bar under the people
 * list that starts one, the page that names how many people it reaches and asks what it needs, and the job's
 * page. All of it plain forms and links: it works the same without JavaScript.
 */
export const PEOPLE_BULK_FORM = "people-bulk";

/** The people list's bar: an action, and the ticked rows or every person the list's filters match. */
export function PeopleBulkStart({ total, filters, locale }: { total: number; filters: Record<string, string>; locale: string }) {
  return (
    <BulkStart
      formId={PEOPLE_BULK_FORM}
      action="/dashboard/users/bulk"
      prefix="bulk"
      actions={PEOPLE_BULK_CHOICES}
      total={total}
      filters={filters}
      locale={locale}
    />
  );
}

/** The box that ticks one row for the bar's form (which it is not inside: the list's table is not a form). */
export function PersonTick({ id, name }: { id: number; name: string }) {
  const { t } = useTranslation();
  return <BulkTick formId={PEOPLE_BULK_FORM} id={id} label={t("bulk.tick", { name })} />;
}

type Loaded = Awaited<ReturnType<typeof peopleBulkLoader>>;
type Reply = { error?: Record<string, string[] | null> } | undefined;

function ActionFields({ data, reply }: { data: Extract<Loaded, { ok: true }>; reply: Reply }) {
  const { t } = useTranslation();
  const errors = (name: string) => reply?.error?.[name] ?? undefined;
  if (data.action === "add_to_group" || data.action === "remove_from_group")
    return (
      <div className="field">
        <label htmlFor="bulk-group">{t("bulk.group")}</label>
        <select id="bulk-group" name="bulkGroup" data-testid="bulk-group">
          {data.groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
        <ErrorList errors={errors("bulkGroup")} />
      </div>
    );
  if (data.action === "assign_course" || data.action === "assign_path") {
    const [name, label, choices] =
      data.action === "assign_course"
        ? (["bulkCourse", t("bulk.course"), data.courses] as const)
        : (["bulkPath", t("bulkMore.path"), data.paths] as const);
    return (
      <>
        <div className="field">
          <label htmlFor="bulk-choice">{label}</label>
          <select id="bulk-choice" name={name} data-testid={data.action === "assign_course" ? "bulk-course" : "bulk-path"}>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.draft ? `${c.title} (${t("bulk.draft")})` : c.title}
              </option>
            ))}
          </select>
          <ErrorList errors={errors(name)} />
        </div>
        <div className="field">
          <label htmlFor="bulk-due">{t("bulk.due")}</label>
          <input id="bulk-due" type="date" name="bulkDue" required data-testid="bulk-due" />
          <ErrorList errors={errors("bulkDue")} />
        </div>
      </>
    );
  }
  if (data.action === "resend_invitation") return <p className="hint">{t("bulkMore.invitationHint")}</p>;
  if (data.action === "change_role")
    return (
      <div className="field">
        <label htmlFor="bulk-role">{t("bulk.role")}</label>
        <select id="bulk-role" name="bulkRole" data-testid="bulk-role">
          {(["learner", "admin", "none"] as const).map((r) => (
            <option key={r} value={r}>
              {t(`users.roles.${r}`)}
            </option>
          ))}
        </select>
        <ErrorList errors={errors("bulkRole")} />
      </div>
    );
  return null;
}

/** The confirmation: how many people, what the action needs, and the button that starts it. */
export function PeopleBulk() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof peopleBulkLoader>();
  const reply = useActionData<Reply & { error?: Record<string, string[] | null> }>();
  if (!data.ok) return <BulkRefused title={t("bulk.title")} error={data.error} back={data.back} backLabel={t("bulk.back")} />;
  const n = new Intl.NumberFormat(data.locale).format(data.count);
  const reach = t(data.scope === "all" ? "bulk.reachAll" : "bulk.reachTicked", { count: data.count, n });
  if (data.exportUrl)
    return (
      <section data-testid="bulk-confirm">
        <Heading>{t("bulk.actions.export")}</Heading>
        <div className="panel">
          <p data-testid="bulk-count">{reach}</p>
          <p className="hint">{t("bulkMore.exportHint")}</p>
          {data.count > 0 ? (
            <a href={data.exportUrl} className="button primary" download data-testid="bulk-export">
              {t("bulkMore.download", { count: data.count, n })}
            </a>
          ) : null}{" "}
          <Link to={data.back}>{t("confirm.cancel")}</Link>
        </div>
      </section>
    );
  return (
    <BulkConfirmForm
      heading={t(`bulk.actions.${data.action}`)}
      reach={reach}
      apply={t("bulk.apply", { count: data.count, n })}
      selection={data}
      formErrors={reply?.error?.[""] ?? null}
      back={data.back}
    >
      <ActionFields data={data} reply={reply} />
    </BulkConfirmForm>
  );
}

/** Without JavaScript the job's page refreshes itself every two seconds while it runs. */
export const peopleBulkJobMeta = bulkJobMeta;

export function PeopleBulkJob() {
  const { t } = useTranslation();
  const { job, detail, back, locale } = useLoaderData<typeof peopleBulkJobLoader>();
  return (
    <section data-testid="bulk-job" data-status={job.status}>
      <div className="toolbar">
        <Heading>{t(`bulk.actions.${job.action}`)}</Heading>
        <Link to={back}>{t("bulk.toPeople")}</Link>
      </div>
      <div className="panel">
        <dl className="bulk-detail">
          {detail.group ? <BulkDetail term={t("bulk.group")} value={detail.group} /> : null}
          {detail.course ? <BulkDetail term={t("bulk.course")} value={detail.course} /> : null}
          {detail.path ? <BulkDetail term={t("bulkMore.path")} value={detail.path} /> : null}
          {detail.due ? <BulkDetail term={t("bulk.due")} value={detail.due} /> : null}
          {detail.role ? <BulkDetail term={t("bulk.role")} value={t(`users.roles.${detail.role}`)} /> : null}
        </dl>
        <BulkJobOutcome job={job} prefix="bulk" locale={locale} />
      </div>
    </section>
  );
}
