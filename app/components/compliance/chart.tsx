import { ListLink } from "~/components/list-link";
import { useId } from "react";
import { useTranslation } from "~/utils/translate";
import { formatNumber } from "~/utils/numbers";
import { COMPLIANCE_STATES, complianceSearch, type ComplianceColumn } from "~/utils/compliance-query";

type Counts = Record<ComplianceColumn, number>;

/**
 * Assigned courses by state (issue 34), drawn as SVG on the server like the analytics charts
 * (app/components/analytics/chart.tsx): one bar split by state, worst first, with a title and description for
 * screen readers and a native tooltip per part; under it a legend whose every entry links to the people in
 * that state. No script.
 */
export function ComplianceChart({
  totals,
  locale,
  filters = {},
  headingId,
}: {
  totals: Counts;
  locale: string;
  filters?: { courseId?: number; groupId?: number };
  headingId?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const width = 640;
  const height = 40;
  const total = Math.max(totals.assigned, 1);
  const number = (n: number) => formatNumber(n, locale);
  const percent = (n: number) => Math.round((n / total) * 100);
  let x = 0;
  const parts = COMPLIANCE_STATES.map((state) => {
    const w = (totals[state] / total) * width;
    const part = { state, x, w };
    x += w;
    return part;
  });
  const description = t("compliance.chart.description", {
    total: number(totals.assigned),
    overdue: number(totals.overdue),
    not_started: number(totals.not_started),
    in_progress: number(totals.in_progress),
    done: number(totals.done),
  });
  const people = (state: ComplianceColumn) => `/dashboard/compliance/people${complianceSearch({ ...filters, state })}` as const;
  return (
    <figure className="compliance-chart" data-testid="compliance-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-t ${id}-d`} preserveAspectRatio="none">
        <title id={`${id}-t`}>{t("compliance.chart.title")}</title>
        <desc id={`${id}-d`}>{description}</desc>
        <rect className="compliance-track" x={0} y={0} width={width} height={height} rx={6} />
        {parts
          .filter((p) => p.w > 0)
          .map((p) => (
            <rect key={p.state} className={`compliance-part state-${p.state}`} x={p.x} y={0} width={p.w} height={height}>
              <title>{`${t(`compliance.columns.${p.state}`)}: ${number(totals[p.state])} (${percent(totals[p.state])} %)`}</title>
            </rect>
          ))}
      </svg>
      <figcaption>
        <ul className="compliance-legend" aria-labelledby={headingId}>
          {COMPLIANCE_STATES.map((state) => (
            <li key={state} className={`state-${state}`} data-state={state}>
              <span className="swatch" aria-hidden="true" />
              <ListLink to={people(state)}>
                <span className="legend-name">{t(`compliance.columns.${state}`)}</span>{" "}
                <strong className="legend-count">{number(totals[state])}</strong>{" "}
                <span className="legend-share">({percent(totals[state])} %)</span>
              </ListLink>
            </li>
          ))}
          <li className="state-expiring" data-state="expiring">
            <span className="swatch" aria-hidden="true" />
            <ListLink to={people("expiring")}>
              <span className="legend-name">{t("compliance.columns.expiring")}</span>{" "}
              <strong className="legend-count">{number(totals.expiring)}</strong>
            </ListLink>
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
