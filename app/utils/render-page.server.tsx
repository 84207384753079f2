import { Writable } from "node:stream";
import type { ReactElement } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { PageReply } from "./page-body";
import { deferHydration } from "./boot.server";

const RENDER_TIMEOUT_MS = 10_000;

/**
 * A Suspense boundary that `renderToString` could not finish (a lazily loaded component whose code has not
 * arrived yet, or an error inside the boundary) is written as `<!--$!-->` and its fallback.
 */
const UNFINISHED_BOUNDARY = "<!--$!-->";

/**
 * In production the page's scripts wait until it has loaded (app/utils/boot.server.ts); in development
 * they run at once, as Remix's live reload expects.
 */
const finish = process.env.NODE_ENV === "production" ? deferHydration : (html: string) => html;

/** A whole page as one reply, sent with its length in one write. */
function pageResponse(body: Buffer<ArrayBuffer>, headers: Headers, status: number) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Content-Length", String(body.length));
  return new PageReply(body, { headers, status });
}

export interface PageOptions {
  headers: Headers;
  status: number;
  /** The request's CSP nonce, for any script React itself would write. */
  nonce?: string;
}

/**
 * A page is rendered in full before its first byte is sent (no streaming): the status code is always
 * right, and pages read the same with JavaScript off.
 *
 * It is first rendered to a string, which costs well under half of what React's streaming renderer costs
 * for the same markup (that one encodes every small piece into 2 KiB chunks on its own;
 * docs/decisions/014-speed.md, "Pages"). Only when that leaves a Suspense boundary unfinished (code
 * still loading, or an error inside a boundary) is the page rendered again with the streaming renderer,
 * waiting for every boundary (`onAllReady`), as every page was before. Both give the same bytes for a
 * finished page. `element` makes the page afresh for each attempt.
 */
export async function renderPage(element: () => ReactElement, { headers, status, nonce }: PageOptions): Promise<Response> {
  const html = renderToString(element());
  if (!html.includes(UNFINISHED_BOUNDARY)) {
    // The streaming renderer starts a document whose root is <html> with its doctype; so does this.
    return pageResponse(Buffer.from(finish(html.startsWith("<html") ? `<!DOCTYPE html>${html}` : html)), headers, status);
  }
  return renderInFull(element(), headers, status, nonce);
}

/** React's streaming renderer, collected in full once every boundary is ready. */
function renderInFull(element: ReactElement, responseHeaders: Headers, responseStatusCode: number, nonce: string | undefined) {
  return new Promise<Response>((resolve, reject) => {
    let didError = false;
    const timer = setTimeout(() => abort(), RENDER_TIMEOUT_MS);
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
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
            resolve(
              pageResponse(
                Buffer.from(finish(Buffer.concat(chunks).toString("utf8"))),
                responseHeaders,
                didError ? 500 : responseStatusCode,
              ),
            );
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
    });
  });
}
