import { Link, useLoaderData } from "@remix-run/react";
import { StateBadge } from "~/components/assignment-state";
import type { PathReportData } from "~/screens/organization-paths.server";
import { useTranslation } from "~/utils/translate";

/** Where people are on a path: how many, under way, done, the median time, and the step each is at. */
function PathAnalytics({ analytics }: { analytics: PathReportData["analytics"] }) {
  const { t } = useTranslation();
  return (
    <section className="panel" aria-labelledby="path-analytics">
      <h3 id="path-analytics">{t("paths.admin.analytics")}</h3>
      <dl className="facts" data-testid="path-analytics">
        <dt>{t("paths.admin.enrolled")}</dt>
        <dd>{analytics.enrolled}</dd>
        <dt>{t("paths.admin.inProgress")}</dt>
        <dd>{analytics.inProgress}</dd>
        <dt>{t("paths.admin.completed")}</dt>
        <dd>{analytics.completed}</dd>
        <dt>{t("paths.admin.median")}</dt>
        <dd>{analytics.medianDays === null ? "—" : t("paths.admin.days", { count: analytics.medianDays })}</dd>
      </dl>
      {analytics.steps.length ? (
        <table className="table">
          <caption>{t("paths.admin.whereStop")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("paths.admin.step")}</th>
              <th scope="col">{t("paths.admin.atStep")}</th>
            </tr>
          </thead>
          <tbody>
            {analytics.steps.map((s) => (
              <tr key={s.id}>
                <td>{t("paths.stepNumber", { number: s.number })}</td>
                <td>{s.at}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

/** The people of one assignment, a page at a time: their due day, their state and each step's. */
function Report({ report, here }: { report: NonNullable<PathReportData["report"]>; here: string }) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(report.total / report.perPage));
  const at = (page: number) => `${here}?assignment=${report.assignment.id}&page=${page}#people`;
  return (
    <div className="path-report" data-testid="path-report">
      <table className="table">
        <caption>{t("paths.assign.report", { count: report.total })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("paths.assign.person")}</th>
            <th scope="col">{t("assigning.columns.dueOn")}</th>
            <th scope="col">{t("assigning.columns.state")}</th>
            {Array.from({ length: report.steps }, (_, i) => (
              <th scope="col" key={i}>
                {t("paths.stepNumber", { number: i + 1 })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.people.map((p) => (
            <tr key={p.userId} data-person={p.email}>
              <td>
                {p.name}
                <br />
                <small>{p.email}</small>
              </td>
              <td>{p.dueOn}</td>
              <td>
                <StateBadge state={p.state} />
              </td>
              {p.steps.map((s, i) => (
                <td key={i} data-step-state={s}>
                  {t(`paths.stateName.${s}`)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {pages > 1 ? (
        <nav aria-label={t("assigning.people.pages")} className="pager">
          {report.page > 1 ? <Link to={at(report.page - 1)}>{t("assigning.people.previous")}</Link> : null}{" "}
          <span>{t("assigning.people.page", { page: report.page, pages })}</span>{" "}
          {report.page < pages ? <Link to={at(report.page + 1)}>{t("assigning.people.next")}</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}

/**
 * A path's analytics and its assignments' people (issue 49): how many are on it, under way and done, the median time
 * to finish, the step each person is at; then, for one assignment, each person's due day, state and each step's
 * state, a page at a time, and all of them as CSV. Links and plain tables: it works without JavaScript.
 */
export function PathReport() {
  const { t } = useTranslation();
  const data = useLoaderData<PathReportData>();
  const here = `${data.base}/${data.path.id}`;
  return (
    <section>
      <p className="breadcrumb">
        <Link to={here}>← {data.path.title}</Link>
      </p>
      <h2>{t("paths.report.title", { title: data.path.title })}</h2>
      <PathAnalytics analytics={data.analytics} />
      <section className="panel" id="people" aria-labelledby="path-people-title">
        <h3 id="path-people-title">{t("paths.assign.list")}</h3>
        {data.assignments.length ? (
          <ul className="path-report-assignments">
            {data.assignments.map((a) => (
              <li key={a.id}>
                <Link
                  to={`${here}/report?assignment=${a.id}#people`}
                  aria-current={data.report?.assignment.id === a.id ? "page" : undefined}
                >
                  {a.target === "group" ? (a.groupName ?? t("assigning.target.deletedGroup")) : a.email}
                </Link>{" "}
                ({t("paths.report.counts", { people: a.people, done: a.done })})
              </li>
            ))}
          </ul>
        ) : (
          <p className="empty-state">{t("paths.assign.none")}</p>
        )}
        {data.report ? (
          <>
            <p>
              <a href={`${here}/export?assignment=${data.report.assignment.id}`} download data-testid="path-report-csv">
                {t("paths.report.csv")}
              </a>
            </p>
            <Report report={data.report} here={`${here}/report`} />
          </>
        ) : null}
      </section>
    </section>
  );
}
