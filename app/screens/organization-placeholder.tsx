import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";
import { ORGANIZATION_TABS } from "./organization-layout";

/** Tabs whose content belongs to later work show an honest empty state, not a fake screen. */
export function placeholderLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "read:organization" }, () => {
      const tab = params.tab ?? "";
      if (!ORGANIZATION_TABS[area].includes(tab) || tab === "index") throw new Response("Not Found", { status: 404 });
      return { tab };
    });
}

export function Placeholder() {
  const { t } = useTranslation();
  const { tab } = useLoaderData<{ tab: string }>();
  return (
    <section className="panel empty-state" data-testid="placeholder">
      <h2>{t("placeholder.title", { tab: t(`tabs.${tab}`) })}</h2>
      <p>{t("placeholder.body")}</p>
    </section>
  );
}
