import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { createInstance } from "i18next";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { isCorruptionError } from "../db/open";
import { DEFAULT_NAMESPACE, FALLBACK_LANGUAGE } from "./utils/i18n";
import { resources } from "./utils/i18n.server";
import { languageFor } from "./utils/preferences.server";

const RENDER_TIMEOUT_MS = 10_000;

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
  const language = await languageFor(request, loadContext);
  const i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    defaultNS: DEFAULT_NAMESPACE,
    ns: [DEFAULT_NAMESPACE],
    resources,
    interpolation: { escapeValue: false },
    initImmediate: false,
  });

  return new Promise<Response>((resolve, reject) => {
    let didError = false;
    const { pipe, abort } = renderToPipeableStream(
      <I18nextProvider i18n={i18n}>
        <RemixServer context={remixContext} url={request.url} nonce={loadContext.cspNonce} />
      </I18nextProvider>,
      {
        nonce: loadContext.cspNonce,
        onAllReady() {
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: didError ? 500 : responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          didError = true;
          console.error(error);
        },
      },
    );
    setTimeout(abort, RENDER_TIMEOUT_MS);
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
