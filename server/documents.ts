import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";
import { pageBody } from "../app/utils/page-body";
import { laneRequest, remixUrl } from "./lane-request";
import { sendTenantBusy, tenantWasBusy } from "./tenant-lock";

/**
 * Remix's Express adapter (`createRequestHandler` of @remix-run/express), except that a page asked for with
 * GET or HEAD gets a Request whose abort signal is made only when something asks for it
 * (server/lane-request.ts): undici's Request with a signal following Remix's AbortController cost about a
 * tenth of a small page's CPU (docs/decisions/014-speed.md, sixth round). The signal is aborted, as Remix's
 * is, when the connection closes before the reply is finished. Requests with a body (forms sent without
 * JavaScript) go through Remix's own adapter. A rendered page's bytes are written out directly.
 */
export function documents(build: ServerBuild | (() => Promise<ServerBuild>), mode: string, getLoadContext: (req: Request, res: Response) => AppLoadContext) {
  const handleRequest = createRequestHandler(build, mode);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const lean = req.method === "GET" || req.method === "HEAD" ? await laneRequest(req, res, remixUrl(req).href) : null;
      const response = await handleRequest(lean ?? createRemixRequest(req, res), getLoadContext(req, res));
      // A loader or action met the organization's file locked by another process: 503, not Remix's 500.
      if (tenantWasBusy(res)) return sendTenantBusy(req, res);
      const page = req.method === "HEAD" ? null : pageBody(response);
      if (!page) return await sendRemixResponse(res, response);
      // A page rendered whole (app/utils/render-page.server.tsx): its bytes are written as they are, as
      // Remix's adapter would write them after reading them back through the Response's body stream.
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      res.end(page);
    } catch (error) {
      next(error);
    }
  };
}
