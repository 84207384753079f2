import { Form, Link, useRouteLoaderData } from "@remix-run/react";
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
        {data?.organization ? <Link to="/categories">{t("nav.categories")}</Link> : null}
        {data?.organization ? <Link to="/search">{t("nav.search")}</Link> : null}
        {data?.organization && data.user ? <Link to="/history">{t("nav.history")}</Link> : null}
        {data?.organization && data.user?.capabilities.includes("read:leaderboard") ? <Link to="/leaderboard">{t("leaderboard.title")}</Link> : null}
        {data?.user?.role === "super_admin" ? <Link to="/admin">{t("nav.admin")}</Link> : null}
        {data?.organization && data.user?.role === "group_admin" ? (
          // groups and import (issue 14): a group admin's own screen
          <Link to="/groups" data-testid="my-groups-link">
            {t("groups.nav")}
          </Link>
        ) : null}
        {data?.organization && data.user?.capabilities.includes("read:organization") ? (
          <Link to="/dashboard" data-testid="dashboard-link">
            {t("nav.dashboard")}
          </Link>
        ) : null}
      </nav>
      <div className="site-tools">
        {data ? <ThemeSwitch theme={data.theme} redirectTo={data.path} /> : null}
        {data ? <LanguageSwitch language={data.language} redirectTo={data.path} /> : null}
        {data?.user ? (
          <>
            <Link to={data.organization ? "/profile" : "/auth/password"} className="user-name" data-testid="user-name" title={t("nav.profile")}>
              {data.user.name}
            </Link>
            <Form method="post" action="/auth/logout">
              <button type="submit" data-testid="logout">
                {t("nav.signOut")}
              </button>
            </Form>
          </>
        ) : data ? (
          <Link to="/auth/login" className="sign-in" data-testid="sign-in">
            {t("nav.signIn")}
          </Link>
        ) : null}
      </div>
    </header>
  );
}
