import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { isCorruptionError } from "../db/open";
import type { Language } from "./utils/i18n";
import { resources } from "./utils/i18n.server";
import { keptT } from "./utils/kept-texts.server";
import { createTranslator, TranslatorProvider, type Translator } from "./utils/translate";
import { languageFor } from "./utils/preferences.server";

const RENDER_TIMEOUT_MS = 10_000;

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

/**
 * Pages are rendered in full before the first byte is sent (no streaming): the status code is always
 * right, and pages read the same with JavaScript off.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const translator = translatorFor(await languageFor(request, loadContext));

  return new Promise<Response>((resolve, reject) => {
    let didError = false;
    const timer = setTimeout(() => abort(), RENDER_TIMEOUT_MS);
    const { pipe, abort } = renderToPipeableStream(
      <TranslatorProvider translator={translator}>
        <RemixServer context={remixContext} url={request.url} nonce={loadContext.cspNonce} />
      </TranslatorProvider>,
      {
        nonce: loadContext.cspNonce,
        onAllReady() {
          clearTimeout(timer);
          // The whole page is ready: it is collected and sent with its length in one write, instead of
          // React's 2 KiB chunks each going to the socket on its own (docs/decisions/014-speed.md).
          const chunks: Buffer[] = [];
          const page = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              const body = Buffer.concat(chunks);
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              responseHeaders.set("Content-Length", String(body.length));
              resolve(new Response(body, { headers: responseHeaders, status: didError ? 500 : responseStatusCode }));
              done();
            },
          });
          page.on("error", reject);
          pipe(page);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          didError = true;
          console.error(error);
        },
      },
    );
  });
}

/**
 * A loader or action that hit a damaged tenant file closes that handle; the next request checks the file
 * in full and answers 503 if it is still damaged (docs/decisions/002-tenancy.md).
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isCorruptionError(error) && context.organization) {
    context.platform.tenants.markSuspect(context.organization.id);
  }
  console.error(error);
};
