import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { formatNumber } from "~/utils/numbers";
import { EmptyState } from "~/components/empty-state";
import { ErrorList } from "~/components/form";
import { ComplianceFilters } from "~/components/compliance/filters";
import { formatDay, PeopleTable } from "~/components/compliance/people-table";
import { complianceSearch } from "~/utils/compliance-query";
import { requireDashboard } from "~/kernel/auth.server";
import { loadCompliancePeople } from "~/screens/compliance.server";
import styles from "~/styles/compliance.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/**
 * /dashboard/compliance/people (issue 34): the people behind a number of the report, with its filters (course or
 * learning path, group, state, due days, name or e-mail) as a GET form, a page at a time, and as CSV.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // The organization admins' page: asked here, not left to the layout, which a `?_data` request skips.
  requireDashboard(request, context);
  return loadCompliancePeople(request, context);
}

export default function CompliancePeople() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { query, page, dateLocale: locale } = data;
  const pageLink = (n: number) => `/dashboard/compliance/people${complianceSearch({ ...query, page: n })}`;
  const last = page.first + data.people.length - 1;
  return (
    <section className="compliance">
      <p className="compliance-back">
        <Link to={`/dashboard/compliance${complianceSearch({ courseId: query.courseId, groupId: query.groupId })}`}>
          {t("compliance.people.back")}
        </Link>
      </p>
      <div className="toolbar">
        <h1>{t("compliance.people.title")}</h1>
        <a className="button" href={`/dashboard/compliance/export${data.search}`} download data-testid="compliance-csv">
          {t("compliance.downloadCsv")}
        </a>
      </div>
      <p className="compliance-intro">{t("compliance.people.intro", { today: formatDay(data.today, locale), zone: data.timeZone })}</p>
      <ComplianceFilters action="/dashboard/compliance/people" options={data.options} query={query} errors={data.errors} people />
      {data.errors && <ErrorList errors={[t("compliance.errors.showingAll")]} />}
      <p className="compliance-count" data-testid="compliance-count" aria-live="polite">
        {t(query.pathId === undefined ? "compliance.people.count" : "compliance.people.countPath", {
          count: data.total,
          formatted: formatNumber(data.total, locale),
        })}
      </p>
      {data.people.length === 0 ? (
        <EmptyState title={t("compliance.people.empty")} body={t("compliance.people.emptyBody")} testId="compliance-people-empty" compact />
      ) : (
        <>
          <PeopleTable people={data.people} locale={locale} timeZone={data.timeZone} path={query.pathId !== undefined} />
          {page.pages > 1 && (
            <nav className="pager" aria-label={t("compliance.people.pages")}>
              {page.page > 1 && (
                <Link to={pageLink(page.page - 1)} rel="prev">
                  {t("compliance.people.previous")}
                </Link>
              )}
              <span>
                {t("compliance.people.showing", {
                  from: formatNumber(page.first, locale),
                  to: formatNumber(last, locale),
                  total: formatNumber(data.total, locale),
                })}
              </span>
              {page.page < page.pages && (
                <Link to={pageLink(page.page + 1)} rel="next">
                  {t("compliance.people.next")}
                </Link>
              )}
            </nav>
          )}
        </>
      )}
    </section>
  );
}
