import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, type SerializeFrom } from "@remix-run/node";
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
import type { ReactNode } from "react";
import { useTranslation } from "~/utils/translate";
import { ErrorPage } from "~/components/error-page";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { publicOrganization } from "~/models/organization.server";
import styles from "~/styles/app.css";
import browseStyles from "~/styles/browse.css";
import { getAuth } from "~/utils/auth.server";
import { takeFlash } from "~/utils/flash.server";
import { textsScript } from "~/utils/i18n.server";
import { languageFor, themeFor } from "~/utils/preferences.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: browseStyles },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const language = await languageFor(request, context);
  const theme = await themeFor(request, context);
  const url = new URL(request.url);
  const auth = await getAuth(request, context);
  const flash = await takeFlash(request);
  return json(
    {
      organization: context.organization
        ? publicOrganization(context.organization, (v) => context.platform.brandingUrl(context.organization!, v))
        : null,
      user:
        auth?.session && auth.person && !auth.session.twoFactorPending
          ? {
              name: [auth.person.firstName, auth.person.lastName].filter(Boolean).join(" ") || auth.person.email,
              role: auth.role,
              capabilities: [...auth.capabilities],
            }
          : null,
      flash: flash.message,
      language,
      theme,
      texts: textsScript(language).url,
      cspNonce: context.cspNonce,
      path: url.pathname + url.search,
    },
    { headers: flash.headers },
  );
}

export type RootData = SerializeFrom<typeof loader>;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.organization?.name ?? "Lectern" },
];

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const nonce = data?.cspNonce;
  return (
    <html lang={data?.language ?? "en"} data-theme={data?.theme ?? "dark"} className={`theme-${data?.theme ?? "dark"}`}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={data?.theme === "light" ? "light" : "dark"} />
        {data?.organization?.favicon ? <link rel="icon" href={data.organization.favicon} /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        {/* The language's texts for the browser: a plain script, so it runs before the modules below. */}
        {data?.texts ? <script nonce={nonce} src={data.texts} /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
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
