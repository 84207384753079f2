import { useTranslation } from "~/utils/translate";
import type { CourseRow } from "~/models/analytics.server";

/** Per course over the period: completions, watch time, material downloads and quiz pass rate. */
export function CoursesTable({
  rows,
  pages,
  search,
  locale,
}: {
  rows: CourseRow[];
  pages?: { page: number; pages: number; total: number; first: number };
  search: string;
  locale: string;
}) {
  const { t } = useTranslation();
  const pageLink = (page: number) => `/dashboard/analytics${search}${page > 1 ? `&courses_page=${page}` : ""}#analytics-courses-title`;
  return (
    <section className="panel" aria-labelledby="analytics-courses-title">
      <div className="toolbar">
        <h2 id="analytics-courses-title">{t("analytics.courses.title")}</h2>
        <a className="button" href={`/dashboard/analytics/export${search}&table=courses`} download>
          {t("analytics.downloadCsv")}
        </a>
      </div>
      {rows.length === 0 ? (
        <p className="empty-state">{t("analytics.courses.empty")}</p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="courses-table">
            <thead>
              <tr>
                <th scope="col">{t("analytics.courses.course")}</th>
                <th scope="col">{t("analytics.kpi.completions")}</th>
                <th scope="col">{t("analytics.courses.watchMinutes")}</th>
                <th scope="col">{t("analytics.kpi.downloads")}</th>
                <th scope="col">{t("analytics.courses.quizAttempts")}</th>
                <th scope="col">{t("analytics.courses.passRate")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.course_id}>
                  <th scope="row">{r.title}</th>
                  <td>{r.completions.toLocaleString(locale)}</td>
                  <td>{r.watch_minutes.toLocaleString(locale)}</td>
                  <td>{r.downloads === null ? "—" : r.downloads.toLocaleString(locale)}</td>
                  <td>{r.quiz_attempts.toLocaleString(locale)}</td>
                  <td>
                    {r.quiz_pass_rate === null ? (
                      "—"
                    ) : (
                      <span className="pass-rate">
                        <meter min={0} max={100} value={r.quiz_pass_rate} aria-hidden="true" /> {r.quiz_pass_rate.toLocaleString(locale)} %
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {pages && pages.pages > 1 ? (
            <nav className="pager" aria-label={t("analytics.courses.pages")}>
              {pages.page > 1 ? (
                <a href={pageLink(pages.page - 1)} rel="prev">
                  {t("analytics.courses.previousPage")}
                </a>
              ) : null}
              <span>
                {t("analytics.courses.showing", {
                  from: pages.first.toLocaleString(locale),
                  to: (pages.first + rows.length - 1).toLocaleString(locale),
                  total: pages.total.toLocaleString(locale),
                })}
              </span>
              {pages.page < pages.pages ? (
                <a href={pageLink(pages.page + 1)} rel="next">
                  {t("analytics.courses.nextPage")}
                </a>
              ) : null}
            </nav>
          ) : null}
        </div>
      )}
    </section>
  );
}
