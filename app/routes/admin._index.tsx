import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { countCourses } from "~/models/course.server";
import { listOrganizations } from "~/models/organization.server";
import { countUsers } from "~/models/user.server";
import { requireSuperAdmin } from "~/utils/auth.server";

/**
 * Spec §4: a super-admin without an organization lands here and picks one; with counts across the
 * platform. (Counting opens each organization's database through the pool; an unreadable one is skipped.)
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSuperAdmin(request, context);
  const organizations = listOrganizations(context.platform.db);
  let users = 0;
  let courses = 0;
  for (const organization of organizations) {
    try {
      const lease = context.platform.tenants.acquire(organization.id);
      try {
        users += countUsers(lease.db);
        courses += countCourses(lease.db);
      } finally {
        context.platform.tenants.release(lease);
      }
    } catch {
      // a damaged organization answers 503 on its own pages; the overview still shows the rest
    }
  }
  return {
    counts: { organizations: organizations.length, users, courses },
    organizations: organizations.map((o) => ({ id: o.id, name: o.name, url: context.platform.originFor(o) })),
  };
}

export default function AdminIndex() {
  const { t } = useTranslation();
  const { counts, organizations } = useLoaderData<typeof loader>();
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
