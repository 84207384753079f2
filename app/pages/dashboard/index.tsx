import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { AnalyticsOverview } from "~/components/analytics/overview";
import { loadAnalytics } from "~/screens/analytics.server";
import analyticsStyles from "~/styles/analytics.css";
import { ComplianceOverview } from "~/components/compliance/overview";
import { complianceOverview } from "~/screens/compliance.server";
import complianceStyles from "~/styles/compliance.css";
import { countCourses } from "~/models/course.server";
import { countUsers } from "~/models/user.server";
import { requireDashboard } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Dashboard overview with the analytics KPIs (docs/product.md §2, §3). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  const auth = requireDashboard(request, context);
  return {
    name: organization.name,
    users: countUsers(db),
    courses: countCourses(db),
    analytics: await loadAnalytics(request, context),
    // Issue 34: assigned courses by state, for those who may read the compliance report.
    compliance: complianceOverview(db, auth),
  };
}

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: analyticsStyles },
  { rel: "stylesheet", href: complianceStyles },
];

export default function DashboardIndex() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>
        {t("dashboard.title")} · {data.name}
      </h1>
      <dl className="counts">
        <div data-testid="count-users">
          <dt>{t("admin.counts.users")}</dt>
          <dd>{data.users}</dd>
        </div>
        <div data-testid="count-courses">
          <dt>{t("admin.counts.courses")}</dt>
          <dd>{data.courses}</dd>
        </div>
      </dl>
      {data.compliance && <ComplianceOverview data={data.compliance} locale={data.analytics.dateLocale} />}
      <AnalyticsOverview data={data.analytics} />
    </section>
  );
}
