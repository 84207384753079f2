import { createCookie } from "@remix-run/node";
import { RemixI18Next } from "remix-i18next/server";
import en from "../../locales/en/common.json";
import pl from "../../locales/pl/common.json";
import da from "../../locales/da/common.json";
import no from "../../locales/no/common.json";
import sv from "../../locales/sv/common.json";
import {
  DEFAULT_NAMESPACE,
  FALLBACK_LANGUAGE,
  LANGUAGES,
  isLanguage,
  type Language,
} from "./i18n";

export const resources = {
  en: { common: en },
  pl: { common: pl },
  da: { common: da },
  no: { common: no },
  sv: { common: sv },
} satisfies Record<Language, { common: typeof en }>;

/** The language chosen on this device with the language switch. Host-only, a year long. */
export const languageCookie = createCookie("lng", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
  secure: process.env.COOKIE_SECURE === "true",
});

export const i18nServer = new RemixI18Next({
  // Only the Accept-Language header is read here; detectLanguage() applies the rest of the order.
  detection: { supportedLanguages: [...LANGUAGES], fallbackLanguage: FALLBACK_LANGUAGE, order: ["header"] },
  i18next: {
    resources,
    defaultNS: DEFAULT_NAMESPACE,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
  },
});

/**
 * The interface language (docs/decisions/005-language-and-theme.md): the choice made on this device, then
 * the user's setting, then the organization's language, then the browser's Accept-Language, then en.
 */
export async function detectLanguage(
  request: Request,
  { user, organization }: { user?: { language?: string | null } | null; organization?: { language: string } | null },
): Promise<Language> {
  const chosen = await languageCookie.parse(request.headers.get("Cookie"));
  if (isLanguage(chosen)) return chosen;
  if (isLanguage(user?.language)) return user.language;
  if (isLanguage(organization?.language)) return organization.language;
  const accepted = await i18nServer.getLocale(request);
  return isLanguage(accepted) ? accepted : FALLBACK_LANGUAGE;
}

export function getFixedT(language: Language) {
  return i18nServer.getFixedT(language, DEFAULT_NAMESPACE);
}
