import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";
import { jsonReplyText } from "../app/utils/json-reply";
import { BodyTooLarge } from "./body-limits";
import { ClientGone, laneRequest, remixUrl, streamingRequest } from "./lane-request";
import { sendTenantBusy, tenantWasBusy } from "./tenant-lock";

/**
 * /api, answered by the app's dispatcher (app/api/dispatch.server.ts) in every mode: development, tests
 * and production (docs/decisions/027-api-lane-and-group-commit.md). Remix never sees an /api path.
 *
 * The dispatcher is reached through the app build's entry module (`build.entry.module`, where
 * app/entry.server.tsx exports it), so the process holds one copy of the app's modules: the server's own
 * bundle (scripts/build-server.mjs) would otherwise carry a second one. The web Request is a LaneRequest
 * (server/lane-request.ts: lazy signal, a small body read whole) or, for an upload, one streaming its body
 * within the request's limit; the reply is written back here (`sendReply`).
 */
type ApiEntry = { dispatchApi(request: globalThis.Request, context: AppLoadContext): Promise<globalThis.Response> };

export const isApiPath = (path: string) => /^\/api(?:\/|$)/i.test(path);

export function serveApi(
  build: ServerBuild | (() => Promise<ServerBuild>),
  getLoadContext: (req: Request, res: Response) => Promise<AppLoadContext>,
  compress: (req: Request, res: Response, next: NextFunction) => void,
) {
  const entryOf = async () => (typeof build === "function" ? await build() : build).entry.module as unknown as ApiEntry;
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!isApiPath(req.path)) return next();
    try {
      const entry = await entryOf();
      const request = (await laneRequest(req, res, remixUrl(req).href)) ?? streamingRequest(req, res);
      const response = await entry.dispatchApi(request, await getLoadContext(req, res));
      // A body refused while it streamed has had its 413 (server/body-limits.ts).
      if (res.headersSent) return;
      // The organization's file locked by another process: 503 with `Retry-After` (decision 033).
      if (tenantWasBusy(res)) return sendTenantBusy(req, res);
      await sendReply(req, res, response, compress);
    } catch (error) {
      if (error instanceof ClientGone) return void res.destroy();
      if (error instanceof BodyTooLarge) return;
      next(error);
    }
  };
}

/** The compression middleware's default threshold: smaller bodies are sent as they are. */
const COMPRESSION_THRESHOLD = 1024;

/**
 * A web Response onto Express's: status, headers (each Set-Cookie on its own), then the body. A JSON reply
 * is sent whole with its length, in one write (a JsonReply from its text, without a body stream), and
 * compressed only past the threshold; a stream (a file, a CSV) is piped, stopped when the client goes away.
 * HEAD gets the headers alone.
 */
export async function sendReply(
  req: Request,
  res: Response,
  response: globalThis.Response,
  compress: (req: Request, res: Response, next: NextFunction) => void,
) {
  if (response.statusText) res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  let body: Buffer | null = null;
  const text = jsonReplyText(response);
  if (text !== null) body = Buffer.from(text);
  else if (response.body && /^application\/json\b/i.test(response.headers.get("Content-Type") ?? ""))
    body = Buffer.from(await response.arrayBuffer());
  if (body) {
    res.setHeader("Content-Length", body.length);
    if (body.length < COMPRESSION_THRESHOLD && !/\bno-transform\b/i.test(String(res.getHeader("Cache-Control") ?? ""))) {
      res.vary("Accept-Encoding");
      res.end(body);
      return;
    }
    compress(req, res, () => res.end(body));
    return;
  }
  const stream = response.body;
  if (!stream) {
    res.end();
    return;
  }
  compress(req, res, () => {
    pipeline(Readable.fromWeb(stream as WebReadableStream), res).catch(() => {
      // The client went away, or the stream failed midway: the reply cannot be finished.
      if (!res.writableFinished) res.destroy();
    });
  });
}
