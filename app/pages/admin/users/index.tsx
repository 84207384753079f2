import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { z } from "zod";
import { listOrganizations } from "~/models/organization.server";
import { listPlatformPeople, organizationsWithoutSummary } from "~/models/tenant-summary.server";
import { requireSuperAdmin } from "~/kernel/auth.server";

const MAX_ROWS = 500;
const query = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  organization: z.coerce.number().int().positive().optional().catch(undefined),
});

/**
 * Every user across organizations (docs/product.md §2 /admin/users), searchable and filterable by organization.
 * People live in their organizations' databases; the platform database keeps a copy of what this list
 * shows, current as people change (app/models/tenant-summary.server.ts), so the list is one query, not
 * one per organization. It stops at 500 rows; the search narrows it.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSuperAdmin(request, context);
  const { q, organization } = query.parse(Object.fromEntries(new URL(request.url).searchParams));
  const organizations = listOrganizations(context.platform.db);
  const people = listPlatformPeople(context.platform.db, { q, organizationId: organization, limit: MAX_ROWS });
  const notGathered = organizationsWithoutSummary(context.platform.db).filter((id) => !organization || id === organization);
  return {
    q: q ?? "",
    organization: organization ?? null,
    organizations: organizations.map((o) => ({ id: o.id, name: o.name })),
    rows: people.map((u) => ({
      key: `${u.organizationId}-${u.userId}`,
      organization: u.organization,
      name: [u.firstName, u.lastName].filter(Boolean).join(" "),
      email: u.email,
      role: u.role,
      disabled: u.disabled,
    })),
    truncated: people.length >= MAX_ROWS,
    notGathered: notGathered.length,
  };
}

export default function AdminUsers() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("admin.users")}</h1>
      <Form method="get" className="search">
        <label>
          <span className="visually-hidden">{t("admin.searchLabel")}</span>
          <input type="search" name="q" defaultValue={data.q} placeholder={t("admin.searchLabel")} />
        </label>
        <label>
          <span className="visually-hidden">{t("admin.organization")}</span>
          <select name="organization" defaultValue={data.organization ?? ""}>
            <option value="">{t("admin.allOrganizations")}</option>
            {data.organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t("admin.search")}</button>
      </Form>
      {data.notGathered > 0 ? <p role="status">{t("admin.notGathered", { number: data.notGathered })}</p> : null}
      {data.rows.length === 0 ? (
        <p className="empty-state">{t("admin.noUsers")}</p>
      ) : (
        <table className="table" data-testid="all-users">
          <thead>
            <tr>
              <th>{t("users.name")}</th>
              <th>{t("users.email")}</th>
              <th>{t("users.type")}</th>
              <th>{t("admin.organization")}</th>
            </tr>
          </thead>
          <tbody>
            {data.rows.map((u) => (
              <tr key={u.key}>
                <td>
                  <Link to={`/admin/users/${u.key}`}>{u.name || u.email}</Link>
                  {u.disabled ? <span className="badge">{t("admin.disabled")}</span> : null}
                </td>
                <td>{u.email}</td>
                <td>{t(`users.roles.${u.role ?? "none"}`)}</td>
                <td>{u.organization}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
