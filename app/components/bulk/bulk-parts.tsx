import type { MetaFunction } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorList, FormMessage } from "~/components/form";
import { Heading } from "~/components/heading";
import { formMessage } from "~/utils/form";
import { useTranslation } from "~/utils/translate";

/**
 * The parts every bulk action's screens share (issue 50; docs/decisions/046-management-lists.md item 5: people in
 * app/screens/people-bulk.tsx, courses in app/screens/course-bulk.tsx): the bar under a list, the box that ticks a
 * row for it, the confirmation's form, and the job's progress and outcome. Plain forms and links: they work the
 * same without JavaScript. Each list names its own texts by a key prefix (`bulk`, `courseBulk`) holding the same
 * keys: `action`, `continue`, `hint`, `all`, `running`, `done`, `unchanged`, `refused.<reason>`.
 */

/** A list's bar: an action, and the ticked rows or every row the list's filters match. */
export function BulkStart({
  formId,
  action,
  prefix,
  actions,
  total,
  filters,
  locale,
}: {
  formId: string;
  action: string;
  prefix: string;
  actions: readonly string[];
  total: number;
  filters: Record<string, string | undefined>;
  locale: string;
}) {
  const { t } = useTranslation();
  return (
    <Form method="get" action={action} id={formId} className="filter-bar bulk-bar" data-testid="bulk-bar">
      {Object.entries(filters).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
      <label>
        {t(`${prefix}.action`)}{" "}
        <select name="bulkAction" data-testid="bulk-action">
          {actions.map((a) => (
            <option key={a} value={a}>
              {t(`${prefix}.actions.${a}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input type="checkbox" name="scope" value="all" data-testid="bulk-all" />{" "}
        {t(`${prefix}.all`, { count: total, n: new Intl.NumberFormat(locale).format(total) })}
      </label>
      <button type="submit" data-testid="bulk-continue">
        {t(`${prefix}.continue`)}
      </button>
      <p className="hint">{t(`${prefix}.hint`)}</p>
    </Form>
  );
}

/** The box that ticks one row for a bar's form (which it is not inside: a list's table is not a form). */
export function BulkTick({ formId, id, label }: { formId: string; id: number; label: string }) {
  return <input type="checkbox" form={formId} name="ids" value={id} aria-label={label} />;
}

/** A confirmation that cannot go on (nothing ticked, a filter that does not parse): why, and the way back. */
export function BulkRefused({ title, error, back, backLabel }: { title: string; error: string; back: string; backLabel: string }) {
  const { t } = useTranslation();
  return (
    <section className="panel" data-testid="bulk-refused">
      <Heading>{title}</Heading>
      <FormMessage>{t(formMessage(error).key)}</FormMessage>
      <Link to={back}>{backLabel}</Link>
    </section>
  );
}

/**
 * The confirmation's form: how many rows it reaches, the selection sent along as it came (the ticked ids, or the
 * list's filters), what the action needs (`children`), and the button that starts the job.
 */
export function BulkConfirmForm({
  heading,
  reach,
  apply,
  selection,
  formErrors,
  back,
  danger = false,
  children,
}: {
  heading: string;
  reach: string;
  apply: string;
  selection: { action: string; scope: string; ids: number[]; filters: Record<string, string>; count: number };
  formErrors: string[] | null;
  back: string;
  danger?: boolean;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section data-testid="bulk-confirm">
      <Heading>{heading}</Heading>
      <Form method="post" className="panel">
        <p data-testid="bulk-count">{reach}</p>
        <input type="hidden" name="bulkAction" value={selection.action} />
        <input type="hidden" name="scope" value={selection.scope} />
        {selection.ids.map((id) => (
          <input key={id} type="hidden" name="ids" value={id} />
        ))}
        {Object.entries(selection.filters).map(([name, value]) =>
          value ? <input key={name} type="hidden" name={name} value={value} /> : null,
        )}
        {children}
        {formErrors ? <ErrorList errors={formErrors} /> : null}
        <button type="submit" className={danger ? "danger" : "primary"} data-testid="bulk-apply" disabled={selection.count === 0}>
          {apply}
        </button>{" "}
        <Link to={back}>{t("confirm.cancel")}</Link>
      </Form>
    </section>
  );
}

/** Without JavaScript a job's page refreshes itself every two seconds while it runs. */
export const bulkJobMeta: MetaFunction = ({ data, matches }) => {
  const inherited = matches.flatMap((m) => m.meta ?? []);
  const status = (data as { job?: { status?: string } } | undefined)?.job?.status;
  return status === "queued" || status === "running" ? [...inherited, { httpEquiv: "refresh", content: "2" }] : inherited;
};

/** One line of what a job was about (a group, a course, a category). */
export function BulkDetail({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}

export interface BulkJobShown {
  status: string;
  progress: number;
  total: number;
  done: number | null;
  unchanged: number | null;
  refused: Partial<Record<string, number>> | null;
  error: string | null;
}

/** A job's progress while it runs, then what was done, left as it was and refused (by reason), or why it failed. */
export function BulkJobOutcome({ job, prefix, locale }: { job: BulkJobShown; prefix: string; locale: string }) {
  const { t } = useTranslation();
  const number = (n: number) => new Intl.NumberFormat(locale).format(n);
  const refused = Object.entries(job.refused ?? {}).filter((entry): entry is [string, number] => (entry[1] ?? 0) > 0);
  return (
    <>
      {job.status === "queued" || job.status === "running" ? (
        <>
          <p>{t(`${prefix}.running`, { progress: job.progress, n: number(job.total) })}</p>
          <progress max={100} value={job.progress} data-testid="bulk-progress" />
          <p className="hint">{t("jobs.refreshHint")}</p>
        </>
      ) : null}
      {job.status === "done" ? (
        <>
          <FormMessage kind="notice">
            {t(`${prefix}.done`, { count: job.done ?? 0, n: number(job.done ?? 0), total: number(job.total) })}
          </FormMessage>
          <ul data-testid="bulk-outcome">
            {job.unchanged ? <li>{t(`${prefix}.unchanged`, { count: job.unchanged, n: number(job.unchanged) })}</li> : null}
            {refused.map(([reason, n]) => (
              <li key={reason} data-reason={reason}>
                {t(`${prefix}.refused.${reason}`, { count: n, n: number(n) })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {job.status === "failed" ? <FormMessage>{t("jobs.failed", { error: job.error ?? "" })}</FormMessage> : null}
    </>
  );
}
