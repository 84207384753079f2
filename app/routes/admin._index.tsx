import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listOrganizations } from "~/models/organization.server";
import { requireSuperAdmin } from "~/utils/auth.server";

/**
 * Spec §4: a super-admin without an organization lands here and picks one. (The full administration,
 * organizations and users, is built on this page by the organization-management work.)
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSuperAdmin(request, context);
  return {
    organizations: listOrganizations(context.platform.db).map((o) => ({
      id: o.id,
      name: o.name,
      url: context.platform.originFor(o),
    })),
  };
}

export default function AdminIndex() {
  const { t } = useTranslation();
  const { organizations } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("admin.title")}</h1>
      <h2>{t("admin.chooseOrganization")}</h2>
      {organizations.length === 0 ? (
        <p className="empty-state">{t("admin.empty")}</p>
      ) : (
        <ul className="organization-list">
          {organizations.map((o) => (
            <li key={o.id}>
              <span className="organization-name">{o.name}</span> <a href={o.url}>{o.url}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
