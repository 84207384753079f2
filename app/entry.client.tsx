import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { FALLBACK_LANGUAGE } from "./utils/i18n";
import { createTranslator, TranslatorProvider } from "./utils/translate";

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
// The browser has only its language's texts; the server's translator reads the same ones (and en's).
const translator = createTranslator(language, texts ? { [language]: { common: texts } } : {});

startTransition(() => {
  hydrateRoot(
    document,
    <TranslatorProvider translator={translator}>
      <StrictMode>
        <RemixBrowser />
      </StrictMode>
    </TranslatorProvider>,
  );
});
