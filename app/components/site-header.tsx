import { Link, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { RootData } from "~/root";
import { LanguageSwitch } from "./language-switch";
import { ThemeSwitch } from "./theme-switch";

export function SiteHeader() {
  const { t } = useTranslation();
  const data = useRouteLoaderData("root") as RootData | undefined;
  const organization = data?.organization;
  const name = organization?.name ?? t("app.name");
  return (
    <header className="site-header">
      <Link to="/" className="brand">
        {organization?.logo ? <img src={organization.logo} alt="" className="brand-logo" /> : null}
        <span className="brand-name">{name}</span>
      </Link>
      <nav aria-label={t("nav.main")} className="site-nav">
        <Link to="/">{t("nav.home")}</Link>
      </nav>
      <div className="site-tools">
        {data ? <ThemeSwitch theme={data.theme} redirectTo={data.path} /> : null}
        {data ? <LanguageSwitch language={data.language} redirectTo={data.path} /> : null}
      </div>
    </header>
  );
}
