import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { AreaNav } from "~/components/area-nav";
import { requireDashboard } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/**
 * The organization admin's area (docs/product.md §2 "Dashboard"), on the organization's own host. Each page
 * under it asks `requireDashboard` itself too: its data request (`?_data=<route id>`) skips this loader.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireDashboard(request, context);
  const { organization } = requireOrganization(context);
  return { id: organization.id };
}

export default function DashboardLayout() {
  const { t } = useTranslation();
  const { id } = useLoaderData<typeof loader>();
  return (
    <div className="area">
      <AreaNav
        label={t("dashboard.title")}
        links={[
          { to: "/dashboard", label: t("dashboard.overview"), end: true },
          { to: "/dashboard/analytics", label: t("analytics.title") },
          { to: "/dashboard/compliance", label: t("compliance.title") },
          { to: "/dashboard/organizations", label: t("dashboard.organizations") },
          { to: "/dashboard/users", label: t("dashboard.users") },
          { to: `/dashboard/organizations/${id}`, label: t("dashboard.settings"), end: true },
        ]}
      />
      <div className="area-body">
        <Outlet />
      </div>
    </div>
  );
}
