import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "~/utils/translate";
import { ErrorPage } from "~/components/error-page";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import type { loader } from "~/root.server";
import styles from "~/styles/app.css";
import browseStyles from "~/styles/browse.css";

// The loader lives in a module of its own, so that none of what it imports reaches the browser's code,
// not even as an empty stand-in module (docs/decisions/014-speed.md, "Client JavaScript").
export { loader } from "~/root.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: browseStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.organization?.name ?? "Lectern" },
  ...(data?.description ? [{ name: "description", content: data.description }] : []),
];

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  // Without the root loader's data (an action's refusal is shown without it), the page's texts' own language.
  const { i18n } = useTranslation();
  const nonce = data?.cspNonce;
  return (
    <html lang={data?.language ?? i18n.language} data-theme={data?.theme ?? "dark"} className={`theme-${data?.theme ?? "dark"}`}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={data?.theme === "light" ? "light" : "dark"} />
        {data?.icon ? <link rel="icon" href={data.icon.href} type={data.icon.type} /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {/* The language's texts for the browser: a plain script, so it runs before the modules below. */}
        {data?.texts ? <script nonce={nonce} src={data.texts} /> : null}
        <ScrollRestorationOnceHydrated />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * React Router's scroll restoration, from hydration on. Its server-rendered script (which restores the
 * place before the first paint, with `history.replaceState` and a `sessionStorage` read) was a 10–25 ms
 * task right after the first paint; the router restores a reloaded page's place itself once it runs, and
 * the page hydrates as soon as it has loaded (app/utils/boot.server.ts).
 */
function ScrollRestorationOnceHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated ? <ScrollRestoration /> : null;
}

function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <>
      <a className="skip-link" href="#main">
        {t("app.skipToContent")}
      </a>
      <SiteHeader />
      <main id="main" className="page">
        {data?.flash ? (
          <p className="flash" role="status" data-testid="flash">
            {t(data.flash)}
          </p>
        ) : null}
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const page = <ErrorPage status={status} />;
  // Without the root loader's data (it failed itself) there is no organization to frame the page with.
  return data ? <Shell>{page}</Shell> : page;
}
