import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { DEFAULT_NAMESPACE, FALLBACK_LANGUAGE } from "./utils/i18n";

declare global {
  interface Window {
    __remixContext: { state: { loaderData?: Record<string, unknown> } };
    /** The language's texts, from the script the root layout names (app/utils/i18n.server.ts). */
    __lecternTexts?: Record<string, unknown>;
  }
}

const root = window.__remixContext.state.loaderData?.root as { language: string } | undefined;
const language = root?.language ?? document.documentElement.lang ?? FALLBACK_LANGUAGE;
const texts = window.__lecternTexts;

i18next.use(initReactI18next).init({
  lng: language,
  fallbackLng: FALLBACK_LANGUAGE,
  defaultNS: DEFAULT_NAMESPACE,
  ns: [DEFAULT_NAMESPACE],
  resources: texts ? { [language]: { [DEFAULT_NAMESPACE]: texts } } : {},
  interpolation: { escapeValue: false },
  initImmediate: false,
});

startTransition(() => {
  hydrateRoot(
    document,
    <I18nextProvider i18n={i18next}>
      <StrictMode>
        <RemixBrowser />
      </StrictMode>
    </I18nextProvider>,
  );
});
