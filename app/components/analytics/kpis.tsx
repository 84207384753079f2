import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { AnalyticsData } from "~/screens/analytics.server";
import type { Kpi, KpiReport, Series } from "~/models/analytics.server";
import { GROUPS, PRESETS, type Grouping } from "~/utils/analytics-periods";
import { formatDate } from "~/utils/dates";
import { BarChart, type ChartPoint } from "./chart";

type Data = Pick<AnalyticsData, "query" | "reports" | "timeZone" | "search"> & { dateLocale: string };

const day = (date: string, locale: string, options: Intl.DateTimeFormatOptions) =>
  formatDate(`${date}T00:00:00Z`, { locale, timeZone: "UTC", ...options });

/** Chart points of a series: short axis labels, and the bucket's days for tooltips and tables. */
export function usePoints(series: Series | null, group: Grouping, locale: string): ChartPoint[] {
  const { t } = useTranslation();
  if (!series) return [];
  return series.buckets.map((b) => {
    const range =
      b.from === b.to
        ? day(b.from, locale, { dateStyle: "medium" })
        : `${day(b.from, locale, { dateStyle: "medium" })} – ${day(b.to, locale, { dateStyle: "medium" })}`;
    if (group === "day")
      return { label: day(b.from, locale, { day: "numeric", month: "short", dateStyle: undefined }), detail: range, value: b.value };
    if (group === "week")
      return {
        label: t("analytics.weekShort", { week: Number(b.key.slice(6)) }),
        detail: `${t("analytics.week", { week: Number(b.key.slice(6)), year: b.key.slice(0, 4) })} · ${range}`,
        value: b.value,
      };
    return {
      label: day(b.from, locale, { month: "short", year: "2-digit", dateStyle: undefined }),
      detail: day(b.from, locale, { month: "long", year: "numeric", dateStyle: undefined }),
      value: b.value,
    };
  });
}

export function Change({ report, locale }: { report: KpiReport; locale: string }) {
  const { t } = useTranslation();
  if (!report.change) return null;
  const { absolute, percent } = report.change;
  const direction = absolute > 0 ? "up" : absolute < 0 ? "down" : "flat";
  const sign = absolute > 0 ? "+" : absolute < 0 ? "−" : "±";
  return (
    <p className={`kpi-change ${direction}`} data-testid={`change-${report.kpi}`}>
      <span aria-hidden="true">{direction === "up" ? "▲" : direction === "down" ? "▼" : "■"}</span> {sign}
      {Math.abs(absolute).toLocaleString(locale)}
      {percent !== null ? ` (${sign}${Math.abs(percent).toLocaleString(locale)} %)` : ""}{" "}
      <span className="kpi-versus">{t("analytics.versusPrevious")}</span>
    </p>
  );
}

/**
 * One KPI's card. Its name is a heading one level below the section it sits in: h3 on the overview (under
 * its "Analytics" h2), h2 on the analytics page (right under the page's h1).
 */
export function KpiCard({ kpi, data, compact = false, level = 3 }: { kpi: Kpi; data: Data; compact?: boolean; level?: 2 | 3 }) {
  const { t } = useTranslation();
  const report = data.reports[kpi];
  const current = usePoints(report.current, data.query.group, data.dateLocale);
  const previous = usePoints(report.previous, data.query.group, data.dateLocale);
  const name = t(`analytics.kpi.${kpi}`);
  const unit = kpi === "watch_time" ? t("analytics.minutes") : "";
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <article className="kpi-card" data-testid={`kpi-${kpi}`}>
      <header>
        <Heading className="kpi-name">{name}</Heading>
        {report.current ? (
          <p className="kpi-total">
            <span data-testid={`total-${kpi}`}>{report.current.total.toLocaleString(data.dateLocale)}</span>
            {unit && <span className="kpi-unit"> {unit}</span>}
          </p>
        ) : (
          <p className="kpi-total muted">{t("analytics.notForGroups")}</p>
        )}
        <Change report={report} locale={data.dateLocale} />
      </header>
      {report.current && (
        <>
          <BarChart
            title={t("analytics.chartTitle", { kpi: name, from: data.query.period.from, to: data.query.period.to })}
            description={t("analytics.chartDescription", { total: report.current.total, buckets: current.length })}
            current={current}
            previous={report.previous ? previous : null}
            currentLabel={t("analytics.currentPeriod")}
            previousLabel={t("analytics.previousPeriod")}
            height={compact ? 160 : 240}
            compact={compact}
          />
          <details className="chart-data">
            <summary>{t("analytics.showData")}</summary>
            <table className="table">
              <caption className="visually-hidden">{name}</caption>
              <thead>
                <tr>
                  <th scope="col">{t(`analytics.group.${data.query.group}`)}</th>
                  <th scope="col">{t("analytics.currentPeriod")}</th>
                  {report.previous && <th scope="col">{t("analytics.previousPeriod")}</th>}
                </tr>
              </thead>
              <tbody>
                {current.map((p, i) => (
                  <tr key={i}>
                    <td>{p.detail}</td>
                    <td>{p.value}</td>
                    {report.previous && <td>{previous[i] ? `${previous[i].value} (${previous[i].detail})` : "—"}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
            {!compact && (
              <a className="button" href={`/dashboard/analytics/export${data.search}&table=${kpi}`} download>
                {t("analytics.downloadCsv")}
              </a>
            )}
          </details>
        </>
      )}
    </article>
  );
}

/** The period form: a GET form, so it works without JavaScript and every view has an address. */
export function PeriodForm({ data, action, withGrouping }: { data: Data; action: string; withGrouping: boolean }) {
  const { t } = useTranslation();
  const { query } = data;
  return (
    <Form method="get" action={action} className="filter-bar period-form" aria-label={t("analytics.periodLabel")}>
      <div className="field">
        <label htmlFor="analytics-period">{t("analytics.period")}</label>
        <select id="analytics-period" name="period" defaultValue={query.preset}>
          {PRESETS.map((p) => (
            <option key={p} value={p}>
              {t(`analytics.presets.${p}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="analytics-from">{t("analytics.from")}</label>
        <input id="analytics-from" type="date" name="from" defaultValue={query.preset === "custom" ? query.period.from : ""} />
      </div>
      <div className="field">
        <label htmlFor="analytics-to">{t("analytics.to")}</label>
        <input id="analytics-to" type="date" name="to" defaultValue={query.preset === "custom" ? query.period.to : ""} />
      </div>
      {withGrouping && (
        <>
          <div className="field">
            <label htmlFor="analytics-group">{t("analytics.grouping")}</label>
            <select id="analytics-group" name="group" defaultValue={query.group}>
              {GROUPS.map((g) => (
                <option key={g} value={g}>
                  {t(`analytics.group.${g}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="field field-check">
            <label>
              <input type="checkbox" name="compare" value="true" defaultChecked={query.compare} /> {t("analytics.compare")}
            </label>
          </div>
        </>
      )}
      <button type="submit" className="button primary">
        {t("analytics.apply")}
      </button>
      <p className="period-summary" data-testid="period-summary">
        {t("analytics.showing", {
          from: day(query.period.from, data.dateLocale, { dateStyle: "medium" }),
          to: day(query.period.to, data.dateLocale, { dateStyle: "medium" }),
          zone: data.timeZone,
        })}
      </p>
    </Form>
  );
}
