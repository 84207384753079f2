import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { AreaNav } from "~/components/area-nav";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";
import { Nested } from "~/components/heading";

/** docs/product.md §2: the tabs of one organization, in each area (admin and dashboard have different sets). */
export const ORGANIZATION_TABS: Record<Area, readonly string[]> = {
  admin: [
    "index",
    "api",
    "carousels",
    "categories",
    "certificate-templates",
    "certificates",
    "courses",
    "groups",
    "leaderboard",
    "lrs",
    "paths",
    "quizzes",
    "sso",
    "users",
  ],
  dashboard: [
    "index",
    "carousels",
    "categories",
    "certificate-templates",
    "certificates",
    "courses",
    "groups",
    "leaderboard",
    "lrs",
    "paths",
    "quizzes",
    "sso",
    "users",
  ],
};

export function organizationLayoutLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "read:organization" }, ({ organization, base }) => ({
      name: organization.name,
      base,
      tabs: ORGANIZATION_TABS[area],
    }));
}

export function OrganizationLayout() {
  const { t } = useTranslation();
  const { name, base, tabs } = useLoaderData<{ name: string; base: string; tabs: string[] }>();
  return (
    <div>
      <h1 className="organization-heading">{name}</h1>
      <AreaNav
        label={name}
        className="tabs"
        links={tabs.map((tab) => ({
          to: tab === "index" ? base : `${base}/${tab}`,
          label: t([`tabs.${tab}`, `${tab}.tab`]),
          end: tab === "index",
        }))}
      />
      <Nested>
        <Outlet />
      </Nested>
    </div>
  );
}
