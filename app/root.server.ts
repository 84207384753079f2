import { json, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { organizationIcon, publicOrganization } from "~/models/organization.server";
import { takeFlash } from "~/utils/flash.server";
import { getFixedT, textsScript } from "~/utils/i18n.server";
import { languageFor, themeFor } from "~/utils/preferences.server";
import type { Language } from "~/utils/i18n";

/** Meta descriptions by language and organization name (every page asks; the texts change only with a deploy). */
const descriptions = new Map<string, string>();
async function description(language: Language, organizationName: string | null) {
  const key = `${language}\u0000${organizationName ?? ""}`;
  let text = descriptions.get(key);
  if (text === undefined) {
    const t = await getFixedT(language);
    text = organizationName ? t("meta.description", { organization: organizationName }) : t("meta.platformDescription");
    if (descriptions.size >= 10_000) descriptions.clear();
    descriptions.set(key, text);
  }
  return text;
}

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
      // The page's meta description where the page has none of its own (app/utils/meta.ts).
      description: await description(language, context.organization?.name ?? null),
      language,
      theme,
      texts: textsScript(language).url,
      icon: organizationIcon(context.organization, context.platform),
      cspNonce: context.cspNonce,
      path: url.pathname + url.search,
    },
    { headers: flash.headers },
  );
}

/** What the root loader gives every page (the header, footer and settings read it through useRouteLoaderData). */
export type RootData = SerializeFrom<typeof loader>;
