import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";
import { pageBody } from "../app/utils/page-body";
import { sendReply } from "./api";
import { laneRequest, remixUrl, streamingRequest } from "./lane-request";
import type { LearnerPageCache } from "./learner-page-cache";
import { partitionedRequestHandler } from "./route-partitions";
import { sendTenantBusy, tenantWasBusy } from "./tenant-lock";

/**
 * Remix's Express adapter (`createRequestHandler` of @remix-run/express), except that a page asked for with
 * GET or HEAD gets a Request whose abort signal is made only when something asks for it
 * (server/lane-request.ts): undici's Request with a signal following Remix's AbortController cost about a
 * tenth of a small page's CPU (docs/decisions/014-speed.md, "The /api lane"). The signal is aborted, as Remix's
 * is, when the connection closes before the reply is finished. Requests with a body (forms sent without
 * JavaScript) are streamed and counted against the request's limit (server/body-limits.ts). A rendered page's
 * bytes are written out directly. Remix is handed only the routes the path can match
 * (server/route-partitions.ts). With `learnerPages`, a signed-in learner's home or course page may be
 * answered from the pages kept for them (server/learner-page-cache.ts), once the viewer is known.
 */
export function documents(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: string,
  getLoadContext: (req: Request, res: Response) => Promise<AppLoadContext>,
  learnerPages?: LearnerPageCache,
) {
  const handleRequest = partitionedRequestHandler(build, mode);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const mark = learnerPages ? learnerPages.mark(req, res) : null;
      const context = await getLoadContext(req, res);
      const pending = learnerPages ? learnerPages.lookup(req, res, context, mark) : null;
      if (pending === "sent") return;
      const lean = req.method === "GET" || req.method === "HEAD" ? await laneRequest(req, res, remixUrl(req).href) : null;
      const response = await handleRequest(lean ?? streamingRequest(req, res), context);
      // A body refused while it streamed has had its 413 (server/body-limits.ts); whatever came of it is dropped.
      if (res.headersSent) return;
      // A loader or action met the organization's file locked by another process: 503, not Remix's 500.
      if (tenantWasBusy(res)) return sendTenantBusy(req, res);
      const page = req.method === "HEAD" ? null : pageBody(response);
      // The general compression middleware has run for a page (server/app.ts).
      if (!page) return await sendReply(req, res, response, (_req, _res, next) => next());
      // A page rendered whole (app/utils/render-page.server.tsx): its bytes are written as they are, as
      // Remix's adapter would write them after reading them back through the Response's body stream.
      if (pending) learnerPages!.keep(pending, response.status, response.headers, page);
      res.statusMessage = response.statusText;
      res.status(response.status);
      for (const [key, value] of response.headers.entries()) res.append(key, value);
      res.end(page);
    } catch (error) {
      if (res.headersSent) return;
      next(error);
    }
  };
}
