import { useTranslation } from "~/utils/translate";
import type { CourseRow } from "~/models/analytics.server";

/** Per course over the period: completions, watch time, material downloads and quiz pass rate. */
export function CoursesTable({ rows, search, locale }: { rows: CourseRow[]; search: string; locale: string }) {
  const { t } = useTranslation();
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
        </div>
      )}
    </section>
  );
}
