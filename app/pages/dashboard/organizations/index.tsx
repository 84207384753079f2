import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { OrganizationsTable } from "~/components/organizations-table";
import { useTranslation } from "~/utils/translate";
import { requireDashboard } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/**
 * The organizations this admin manages. People belong to one organization's database, so on this host
 * that is this organization; an admin of several signs in on each.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization } = requireOrganization(context);
  requireDashboard(request, context);
  return { organizations: [{ id: organization.id, name: organization.name, url: context.platform.originFor(organization) }] };
}

export default function DashboardOrganizations() {
  const { t } = useTranslation();
  const { organizations } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("dashboard.organizations")}</h1>
      <OrganizationsTable organizations={organizations} base="/dashboard/organizations" />
    </section>
  );
}
