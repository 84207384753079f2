import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { listOrganizations } from "~/models/organization.server";
import { platformTotals } from "~/models/tenant-summary.server";
import { requireSuperAdmin } from "~/kernel/auth.server";

/**
 * docs/product.md §4: a super-admin without an organization lands here and picks one; with counts across the
 * platform, read from the platform database (the organizations' summaries, kept current as their people
 * and courses change: app/models/tenant-summary.server.ts), never by opening every organization.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSuperAdmin(request, context);
  const organizations = listOrganizations(context.platform.db);
  const totals = platformTotals(context.platform.db);
  return {
    counts: { organizations: organizations.length, users: totals.users, courses: totals.courses },
    notGathered: totals.notGathered,
    organizations: organizations.map((o) => ({ id: o.id, name: o.name, url: context.platform.originFor(o) })),
  };
}

export default function AdminIndex() {
  const { t } = useTranslation();
  const { counts, notGathered, organizations } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("admin.title")}</h1>
      <dl className="counts">
        {(["organizations", "users", "courses"] as const).map((key) => (
          <div key={key} data-testid={`count-${key}`}>
            <dt>{t(`admin.counts.${key}`)}</dt>
            <dd>{counts[key]}</dd>
          </div>
        ))}
      </dl>
      {notGathered > 0 ? <p role="status">{t("admin.notGathered", { number: notGathered })}</p> : null}
      <h2>{t("admin.chooseOrganization")}</h2>
      {organizations.length === 0 ? (
        <p className="empty-state">{t("admin.empty")}</p>
      ) : (
        <ul className="organization-list">
          {organizations.map((o) => (
            <li key={o.id}>
              <Link to={`/admin/organizations/${o.id}`} className="organization-name">
                {o.name}
              </Link>{" "}
              <a href={o.url}>{o.url}</a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
