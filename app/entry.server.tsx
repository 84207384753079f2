import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { createInstance, type i18n } from "i18next";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { isCorruptionError } from "../db/open";
import { DEFAULT_NAMESPACE, FALLBACK_LANGUAGE, type Language } from "./utils/i18n";
import { resources } from "./utils/i18n.server";
import { keepTexts } from "./utils/kept-texts.server";
import { languageFor } from "./utils/preferences.server";

const RENDER_TIMEOUT_MS = 10_000;

/**
 * One i18next instance per language, made on first use and shared by every render in that language:
 * renders only read from it, and making one per request cost more than the rest of a small page.
 */
const instances = new Map<Language, Promise<i18n>>();
function i18nFor(language: Language) {
  let instance = instances.get(language);
  if (!instance) {
    const created = createInstance();
    instance = created
      .use(initReactI18next)
      .init({
        lng: language,
        fallbackLng: FALLBACK_LANGUAGE,
        defaultNS: DEFAULT_NAMESPACE,
        ns: [DEFAULT_NAMESPACE],
        resources,
        interpolation: { escapeValue: false },
        initImmediate: false,
      })
      .then(() => keepTexts(created));
    instances.set(language, instance);
  }
  return instance;
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
  const i18n = await i18nFor(await languageFor(request, loadContext));

  return new Promise<Response>((resolve, reject) => {
    let didError = false;
    const timer = setTimeout(() => abort(), RENDER_TIMEOUT_MS);
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} nonce={loadContext.cspNonce} />
      </I18nextProvider>,
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
