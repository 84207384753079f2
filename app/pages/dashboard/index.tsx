import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { AnalyticsOverview } from "~/components/analytics/overview";
import { loadAnalytics } from "~/screens/analytics.server";
import analyticsStyles from "~/styles/analytics.css";
import { countCourses } from "~/models/course.server";
import { countUsers } from "~/models/user.server";
import { requireCapability } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Dashboard overview with the analytics KPIs (docs/product.md §2, §3). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  await requireCapability(request, context, "read:organization");
  return { name: organization.name, users: countUsers(db), courses: countCourses(db), analytics: await loadAnalytics(request, context) };
}

export const links: LinksFunction = () => [{ rel: "stylesheet", href: analyticsStyles }];

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
      <AnalyticsOverview data={data.analytics} />
    </section>
  );
}
