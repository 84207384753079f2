import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { countCourses } from "~/models/course.server";
import { countUsers } from "~/models/user.server";
import { requireCapability } from "~/utils/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Dashboard overview; the analytics KPIs (spec §3) join it with the analytics work. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  await requireCapability(request, context, "read:organization");
  return { name: organization.name, users: countUsers(db), courses: countCourses(db) };
}

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
    </section>
  );
}
