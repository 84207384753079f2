import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isCorruptionError } from "../db/open";
import { isBusyError } from "../db/write-lock";
import type { Language } from "./utils/i18n";
import { resources } from "./utils/i18n.server";
import { keptT } from "./utils/kept-texts.server";
import { markupKeeper, MarkupKeeperContext } from "./utils/kept-markup.server";
import { createTranslator, TranslatorProvider, type Translator } from "./utils/translate";
import { languageFor } from "./utils/preferences.server";
import { renderPage } from "./utils/render-page.server";
import { subscribeLearningEvents } from "./models/subscribers.server";

// /api is answered by the dispatcher, which Express calls through this module (server/api.ts): one copy of
// the app's modules in the process, whatever the mode (docs/decisions/027-api-lane-and-group-commit.md).
export { dispatchApi } from "./api/dispatch.server";
export { dispatchXapi } from "./xapi/dispatch.server";
// The /api contract the dispatcher answers by, as this build holds it: the tests hold every reply they get
// to it (tests/helpers/contract.ts) from the build they run, rather than compile the app's modules again.
export { API_CALLS } from "./api/calls/index.server";
export { errorEnvelope, okEnvelope } from "./api/contract.server";
export { isFileReply } from "./api/openapi.server";

// What reacts to learning (certificates, analytics, groups, points) subscribes once, as the app loads.
subscribeLearningEvents();

/**
 * One translator per language, made on first use and shared by every render in that language: the same
 * translator the browser hydrates with (app/utils/translate.tsx), so both sides write the same texts. Its
 * answers for a key and plain values are kept (app/utils/kept-texts.server.ts).
 */
const translators = new Map<Language, Translator>();
function translatorFor(language: Language) {
  let translator = translators.get(language);
  if (!translator) {
    const made = createTranslator(language, resources);
    translator = { ...made, t: keptT(made.t) };
    translators.set(language, translator);
  }
  return translator;
}

/** Every document: rendered in full before its first byte is sent (app/utils/render-page.server.tsx). */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const translator = translatorFor(await languageFor(request, loadContext));
  privateToSignedIn(responseHeaders, loadContext);
  // Course cards' markup kept by what they show (docs/decisions/030-kept-markup.md); the cards this page
  // rendered in full are rendered on their own and kept once the page is out.
  const keeper = markupKeeper();
  try {
    return await renderPage(
      () => (
        <TranslatorProvider translator={translator}>
          <MarkupKeeperContext.Provider value={keeper}>
            <RemixServer context={remixContext} url={request.url} nonce={loadContext.cspNonce} />
          </MarkupKeeperContext.Provider>
        </TranslatorProvider>
      ),
      { headers: responseHeaders, status: responseStatusCode, nonce: loadContext.cspNonce },
    );
  } finally {
    setImmediate(() => keeper.fill());
  }
}

/**
 * What a signed-in person sees is theirs alone: never kept by a browser's cache or a proxy, so the back
 * button after signing out, or the next person at a shared computer, finds nothing (decision 015 promised it
 * for certificates; it holds for every signed-in page and its data requests).
 */
function privateToSignedIn(headers: Headers, context: AppLoadContext) {
  if (context.viewer?.via) headers.set("Cache-Control", "private, no-store");
}

export function handleDataRequest(response: Response, { context }: { context: AppLoadContext }) {
  privateToSignedIn(response.headers, context);
  return response;
}

/**
 * A loader or action that hit a damaged tenant file closes that handle; the next request checks the file
 * in full and answers 503 if it is still damaged (docs/decisions/002-tenancy.md). One that met the file
 * locked by another process marks the request, which the server then answers with a 503 and
 * `Retry-After` instead of Remix's 500 (server/tenant-lock.ts, docs/decisions/033-tenant-write-locks.md).
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (isBusyError(error)) {
    context.tenantBusy = true;
    return;
  }
  if (request.signal.aborted) return;
  if (isCorruptionError(error) && context.organization) {
    context.platform.tenants.markSuspect(context.organization.id);
  }
  console.error(error);
};
