import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { RootData } from "~/root.server";

export function SiteFooter() {
  const { t } = useTranslation();
  const data = useRouteLoaderData("root") as RootData | undefined;
  return (
    <footer className="site-footer">
      {data?.organization?.footer ? <p className="org-footer">{data.organization.footer}</p> : null}
      <p className="powered-by">{t("app.poweredBy")}</p>
    </footer>
  );
}
