import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";
import { BodyTooLarge, lingerThenClose, refuseBody } from "./body-limits";
import { ClientGone, streamingRequest } from "./lane-request";
import { sendReply } from "./api";
import { sendTenantBusy, tenantWasBusy } from "./tenant-lock";

/**
 * /xapi: each organization's Learning Record Store, answered by the app's xAPI dispatcher (app/xapi/, reached
 * through the build's entry module as /api's is; docs/decisions/043-learning-record-store.md). It runs right
 * after tenancy, before the checks made for the app's own pages: a credential, never a cookie, authorises
 * it (cookies are dropped here), so the same-origin check on posts does not apply; it keeps its own limits
 * on bodies (read only once the credential holds) and answers CORS for any origin.
 *
 * The body is handed over as a stream counted against the largest request the LRS takes; what the
 * dispatcher leaves unread (a refused credential, a body past its limit) is drained for a moment and the
 * connection closed, as a refused body is (server/body-limits.ts).
 */
type XapiEntry = { dispatchXapi(request: globalThis.Request, context: AppLoadContext): Promise<globalThis.Response> };

export const isXapiPath = (path: string) => /^\/xapi(?:\/|$)/.test(path);

/** The most any request to the LRS may send: a batch of statements with its attachments (app/xapi/limits.ts). */
export const XAPI_REQUEST_BYTES = 96 * 1024 * 1024;

export function serveXapi(
  build: ServerBuild | (() => Promise<ServerBuild>),
  getLoadContext: (req: Request, res: Response) => Promise<AppLoadContext>,
  compress: (req: Request, res: Response, next: NextFunction) => void,
) {
  const entryOf = async () => (typeof build === "function" ? await build() : build).entry.module as unknown as XapiEntry;
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isXapiPath(req.path)) return next();
    if (req.headers.cookie !== undefined) delete req.headers.cookie;
    res.locals.bodyLimit = { bytes: XAPI_REQUEST_BYTES, named: XAPI_REQUEST_BYTES };
    // A body declared larger than any the LRS takes is refused before anything is read.
    const declared = req.headers["content-length"];
    if (declared !== undefined && !(Number(declared) <= XAPI_REQUEST_BYTES)) return refuseBody(req, res);
    try {
      const entry = await entryOf();
      const response = await entry.dispatchXapi(streamingRequest(req, res), await getLoadContext(req, res));
      if (res.headersSent) return;
      if (tenantWasBusy(res)) return sendTenantBusy(req, res);
      if (!req.complete && req.method !== "GET" && req.method !== "HEAD") lingerThenClose(req, res);
      await sendReply(req, res, response, compress);
    } catch (error) {
      if (error instanceof ClientGone) return void res.destroy();
      if (error instanceof BodyTooLarge) return;
      next(error);
    }
  };
}
