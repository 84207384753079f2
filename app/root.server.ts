import { json, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { publicOrganization } from "~/models/organization.server";
import { takeFlash } from "~/utils/flash.server";
import { textsScript } from "~/utils/i18n.server";
import { languageFor, themeFor } from "~/utils/preferences.server";

/** The root route's loader (app/root.tsx re-exports it). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const language = await languageFor(request, context);
  const theme = await themeFor(request, context);
  const url = new URL(request.url);
  const auth = context.viewer;
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

/** What the root loader gives every page (the header, footer and settings read it through useRouteLoaderData). */
export type RootData = SerializeFrom<typeof loader>;
