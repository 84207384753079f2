import { Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { loadAnalytics } from "~/screens/analytics.server";
import { KPIS } from "~/utils/analytics-periods";
import { ErrorList } from "~/components/form";
import { KpiCard, PeriodForm } from "./kpis";

export type AnalyticsView = Awaited<ReturnType<typeof loadAnalytics>>;

/** The dashboard overview's analytics (docs/product.md §2 "Index (overview with analytics)"): the four KPIs. */
export function AnalyticsOverview({ data }: { data: AnalyticsView }) {
  const { t } = useTranslation();
  return (
    <section className="analytics" aria-labelledby="analytics-overview-title">
      <div className="toolbar">
        <h2 id="analytics-overview-title">{t("analytics.title")}</h2>
        <Link className="button" to={`/dashboard/analytics${data.search}`}>
          {t("analytics.open")}
        </Link>
      </div>
      <PeriodForm data={data} action="/dashboard" withGrouping={false} />
      <AnalyticsErrors errors={data.errors} />
      <div className="kpi-grid">
        {KPIS.map((kpi) => (
          <KpiCard key={kpi} kpi={kpi} data={data} compact />
        ))}
      </div>
    </section>
  );
}

export function AnalyticsErrors({ errors }: { errors: Record<string, string[]> | null }) {
  if (!errors) return null;
  return <ErrorList errors={Object.values(errors).flat()} />;
}
