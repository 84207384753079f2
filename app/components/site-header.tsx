import { Form, Link, NavLink, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { RootData } from "~/root.server";
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
        <NavLink to="/" end>
          {t("nav.home")}
        </NavLink>
        {data?.organization ? <NavLink to="/categories">{t("nav.categories")}</NavLink> : null}
        {data?.organization ? <NavLink to="/search">{t("nav.search")}</NavLink> : null}
        {data?.organization && data.user ? <NavLink to="/history">{t("nav.history")}</NavLink> : null}
        {data?.organization && data.user?.capabilities.includes("read:leaderboard") ? (
          <NavLink to="/leaderboard">{t("leaderboard.title")}</NavLink>
        ) : null}
        {data?.user?.role === "super_admin" ? <NavLink to="/admin">{t("nav.admin")}</NavLink> : null}
        {data?.organization && data.user?.role === "group_admin" ? (
          // groups and import (issue 14): a group admin's own screen
          <NavLink to="/groups" data-testid="my-groups-link">
            {t("groups.nav")}
          </NavLink>
        ) : null}
        {data?.organization && data.user?.capabilities.includes("read:organization") ? (
          <NavLink to="/dashboard" data-testid="dashboard-link">
            {t("nav.dashboard")}
          </NavLink>
        ) : null}
      </nav>
      <div className="site-tools">
        {data ? <ThemeSwitch theme={data.theme} redirectTo={data.path} /> : null}
        {data ? <LanguageSwitch language={data.language} redirectTo={data.path} /> : null}
        {data?.user ? (
          <>
            <Link
              to={data.organization ? "/profile" : "/auth/password"}
              className="user-name"
              data-testid="user-name"
              title={t("nav.profile")}
            >
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
