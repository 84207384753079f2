import { Form, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/utils/translate";
import type { RootData } from "~/root.server";
import { LanguageSwitch } from "./language-switch";
import { ListLink, type AppPath } from "./list-link";
import { ThemeSwitch } from "./theme-switch";

/**
 * A link of the site's navigation: `aria-current="page"` on the page it leads to or one below it (only that
 * page for `end`), as React Router's NavLink marks it, from the location read once by the header instead
 * of once a link (with its address worked out relative to the route each time; a tenth of the header's
 * render). The same markup and client-side navigation as the cards' links (app/components/list-link.tsx).
 */
function NavItem({
  to,
  here,
  end,
  children,
  "data-testid": testId,
}: {
  to: AppPath;
  here: string;
  end?: boolean;
  children: ReactNode;
  "data-testid"?: string;
}) {
  const current = here === to || (!end && here.startsWith(to) && here.charAt(to.length) === "/");
  return (
    <ListLink to={to} aria-current={current ? "page" : undefined} data-testid={testId}>
      {children}
    </ListLink>
  );
}

export function SiteHeader() {
  const { t } = useTranslation();
  const here = useLocation().pathname.toLowerCase();
  const data = useRouteLoaderData("root") as RootData | undefined;
  const organization = data?.organization;
  const name = organization?.name ?? t("app.name");
  return (
    <header className="site-header">
      <ListLink to="/" className="brand">
        {organization?.logo ? <img src={organization.logo} alt="" className="brand-logo" /> : null}
        <span className="brand-name">{name}</span>
      </ListLink>
      <nav aria-label={t("nav.main")} className="site-nav">
        <NavItem to="/" here={here} end>
          {t("nav.home")}
        </NavItem>
        {data?.organization ? (
          <NavItem to="/categories" here={here}>
            {t("nav.categories")}
          </NavItem>
        ) : null}
        {data?.organization ? (
          <NavItem to="/paths" here={here}>
            {t("paths.nav")}
          </NavItem>
        ) : null}
        {data?.organization ? (
          <NavItem to="/search" here={here}>
            {t("nav.search")}
          </NavItem>
        ) : null}
        {data?.organization && data.user ? (
          <NavItem to="/history" here={here}>
            {t("nav.history")}
          </NavItem>
        ) : null}
        {data?.organization && data.user?.capabilities.includes("read:leaderboard") ? (
          <NavItem to="/leaderboard" here={here}>
            {t("leaderboard.title")}
          </NavItem>
        ) : null}
        {data?.user?.role === "super_admin" ? (
          <NavItem to="/admin" here={here}>
            {t("nav.admin")}
          </NavItem>
        ) : null}
        {data?.organization && data.user?.role === "group_admin" ? (
          // groups and import (issue 14): a group admin's own screen
          <NavItem to="/groups" here={here} data-testid="my-groups-link">
            {t("groups.nav")}
          </NavItem>
        ) : null}
        {data?.organization && data.user?.capabilities.includes("read:organization") ? (
          <NavItem to="/dashboard" here={here} data-testid="dashboard-link">
            {t("nav.dashboard")}
          </NavItem>
        ) : null}
      </nav>
      <div className="site-tools">
        {data ? <ThemeSwitch theme={data.theme} redirectTo={data.path} /> : null}
        {data ? <LanguageSwitch language={data.language} redirectTo={data.path} /> : null}
        {data?.user ? (
          <>
            <ListLink
              to={data.organization ? "/profile" : "/auth/password"}
              className="user-name"
              data-testid="user-name"
              title={t("nav.profile")}
            >
              {data.user.name}
            </ListLink>
            <Form method="post" action="/auth/logout">
              <button type="submit" data-testid="logout">
                {t("nav.signOut")}
              </button>
            </Form>
          </>
        ) : data ? (
          <ListLink to="/auth/login" className="sign-in" data-testid="sign-in">
            {t("nav.signIn")}
          </ListLink>
        ) : null}
      </div>
    </header>
  );
}
