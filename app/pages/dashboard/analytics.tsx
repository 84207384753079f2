import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { CoursesTable } from "~/components/analytics/courses-table";
import { KpiCard, PeriodForm } from "~/components/analytics/kpis";
import { AnalyticsErrors } from "~/components/analytics/overview";
import { KPIS } from "~/utils/analytics-periods";
import { requireDashboard } from "~/kernel/auth.server";
import { loadAnalytics } from "~/screens/analytics.server";
import styles from "~/styles/analytics.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

/** /dashboard/analytics (docs/product.md §2): the KPIs by day, week or month, compared, and per course. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  // The organization admins' page: asked here, not left to the layout, which a `?_data` request skips.
  requireDashboard(request, context);
  return loadAnalytics(request, context, { courses: true, paged: true });
}

export default function Analytics() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <section className="analytics">
      <h1>{t("analytics.title")}</h1>
      <PeriodForm data={data} action="/dashboard/analytics" withGrouping />
      <AnalyticsErrors errors={data.errors} />
      <div className="kpi-grid wide">
        {KPIS.map((kpi) => (
          <KpiCard key={kpi} kpi={kpi} data={data} level={2} />
        ))}
      </div>
      <CoursesTable rows={data.courses} pages={data.coursePages} search={data.search} locale={data.dateLocale} />
    </section>
  );
}
