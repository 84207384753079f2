import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { EmptyState } from "~/components/empty-state";
import { ErrorList } from "~/components/form";
import { ComplianceChart } from "~/components/compliance/chart";
import { ComplianceFilters } from "~/components/compliance/filters";
import { formatDay } from "~/components/compliance/people-table";
import { CountsTable } from "~/components/compliance/tables";
import { requireDashboard } from "~/kernel/auth.server";
import { loadComplianceReport } from "~/screens/compliance.server";
import styles from "~/styles/compliance.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * /dashboard/compliance (issue 34): per course, per learning path (issue 49) and per group, assigned, done, in
 * progress, not started, overdue and expiring within 30 days, each count a link to the people behind it; a course and a group
 * narrow it (a GET form). The numbers are app/models/compliance.server.ts's.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // The organization admins' page: asked here, not left to the layout, which a `?_data` request skips.
  requireDashboard(request, context);
  return loadComplianceReport(request, context);
}

export default function Compliance() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { report, dateLocale: locale } = data;
  const filtered = data.query.courseId !== undefined || data.query.groupId !== undefined;
  const nothingAssigned = report.totals.assigned === 0 && !filtered && data.options.courses.length === 0 && data.options.paths.length === 0;
  return (
    <section className="compliance">
      <div className="toolbar">
        <h1>{t("compliance.title")}</h1>
        {!nothingAssigned && (
          <a className="button" href={`/dashboard/compliance/export${data.search}`} download data-testid="compliance-csv">
            {t("compliance.downloadCsv")}
          </a>
        )}
      </div>
      <p className="compliance-intro" data-testid="compliance-today">
        {t("compliance.intro", {
          today: formatDay(report.today, locale),
          zone: data.timeZone,
          until: formatDay(report.expiringUntil, locale),
        })}
      </p>
      {nothingAssigned ? (
        <EmptyState title={t("compliance.empty.title")} body={t("compliance.empty.body")} testId="compliance-empty" />
      ) : (
        <>
          <ComplianceFilters action="/dashboard/compliance" options={data.options} query={data.query} errors={data.errors} />
          {data.errors && <ErrorList errors={[t("compliance.errors.showingAll")]} />}
          <section className="panel" aria-labelledby="compliance-summary-title">
            <h2 id="compliance-summary-title">{t("compliance.chart.title")}</h2>
            <ComplianceChart totals={report.totals} locale={locale} filters={data.query} headingId="compliance-summary-title" />
          </section>
          <CountsTable
            id="compliance-courses"
            title={t("compliance.byCourse")}
            hint={t("compliance.byCourseHint")}
            rowHeader={t("compliance.people.course")}
            rows={report.courses.map((c) => ({ ...c, id: c.course_id, name: c.title }))}
            totals={report.totals}
            kind="course"
            filters={data.query}
            locale={locale}
            empty={t("compliance.noneMatch")}
          />
          {data.options.paths.length > 0 && data.query.courseId === undefined && (
            <CountsTable
              id="compliance-paths"
              title={t("compliance.byPath")}
              hint={t("compliance.byPathHint")}
              rowHeader={t("compliance.filters.path")}
              rows={data.paths.map((p) => ({ ...p, id: p.path_id, name: p.title }))}
              kind="path"
              filters={data.query}
              locale={locale}
              empty={t("compliance.noneMatch")}
            />
          )}
          <CountsTable
            id="compliance-groups"
            title={t("compliance.byGroup")}
            hint={t("compliance.byGroupHint")}
            rowHeader={t("compliance.filters.group")}
            rows={report.groups.map((g) => ({ ...g, id: g.group_id, name: g.name }))}
            kind="group"
            filters={data.query}
            locale={locale}
            empty={t("compliance.noGroups")}
          />
        </>
      )}
    </section>
  );
}
