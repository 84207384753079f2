import { Transform, type Readable } from "node:stream";
import type { NextFunction, Request, Response } from "express";
import { mayAct } from "../app/access/rules";
import type { Viewer } from "../app/access/viewer";
import { viewerOf } from "./viewer";
import type { Capability } from "../app/utils/capabilities";
import { IMPORT_MAX_BYTES } from "../app/models/user-import.server";
import { CAPTION_FILE_MAX_BYTES } from "../app/models/file.server";
import type { Config } from "./config";
import type { Platform } from "./platform";
import { sendStatusPage } from "./status-page";

/**
 * Request bodies, bounded by route and by who is asking, before anything reads them (docs/security.md "Input and
 * content": a 300 MB body to any path). Every body is counted while it streams, so a body without a length
 * (chunked) or one that lies about its length is cut off at the same limit:
 *  - anyone not signed in: 64 KiB (a sign-in form, a reset request, a heartbeat are a few hundred bytes);
 *  - a signed-in person's form or JSON: 1 MiB (a text lesson holds up to 100,000 characters);
 *  - the routes that take files (UPLOADS below), for a signed-in person holding the route's capability, in
 *    the route's own format: that route's limit. Anyone else sending a file there gets the limits above.
 * A refused body gets a 413 naming its limit, and the connection is closed rather than read to its end.
 */
export const ANONYMOUS_BODY_BYTES = 64 * 1024;
export const SIGNED_IN_BODY_BYTES = 1024 * 1024;
/**
 * Room for a multipart body's boundaries and its small fields beside the file; a file a little over its
 * limit is then refused by the route itself, with the form's own message (app/kernel/upload.server.ts).
 */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

type Limits = Pick<Config, "FILE_MAX_BYTES" | "IMAGE_MAX_BYTES">;

interface UploadRoute {
  path: RegExp;
  capability: Capability;
  /** The media types this route streams (a file form, or a CSV body for the user import). */
  types: readonly string[];
  limit: (limits: Limits) => number;
}

const area = String.raw`^/(?:admin|dashboard)/organizations/[^/]+`;
const FORM = ["multipart/form-data"] as const;

/** Every route that takes a file, with what it takes. A route not listed here never reads more than 1 MiB. */
export const UPLOADS: readonly UploadRoute[] = [
  { path: /^\/api\/files\/?$/, capability: "write:file", types: FORM, limit: (l) => l.FILE_MAX_BYTES },
  { path: /^\/api\/users\/import\/[^/]+\/?$/, capability: "write:user", types: [...FORM, "text/csv"], limit: () => IMPORT_MAX_BYTES },
  { path: /^\/dashboard\/users\/import\/?$/, capability: "write:user", types: FORM, limit: () => IMPORT_MAX_BYTES },
  // Logo, favicon and sign-in background (app/screens/organization-settings.tsx).
  { path: new RegExp(`${area}/?$`), capability: "write:organization", types: FORM, limit: (l) => l.IMAGE_MAX_BYTES },
  // A template's background image (app/screens/certificate-template-editor.tsx).
  {
    path: new RegExp(`${area}/certificate-templates/[^/]+/?$`),
    capability: "write:certificate-template",
    types: FORM,
    limit: (l) => l.IMAGE_MAX_BYTES,
  },
  // A course's files: materials, covers, videos (app/screens/organization-courses.server.ts).
  { path: new RegExp(`${area}/courses/[^/]+/?$`), capability: "write:course", types: FORM, limit: (l) => l.FILE_MAX_BYTES },
  // A SCORM package (app/screens/lesson-scorm.tsx).
  {
    path: new RegExp(`${area}/courses/[^/]+/lessons/[^/]+/scorm/?$`),
    capability: "write:course",
    types: FORM,
    limit: (l) => l.FILE_MAX_BYTES,
  },
  // Caption files (issue 35): the lesson's captions screen and /api (app/kernel/captions.server.ts).
  {
    path: new RegExp(`${area}/courses/[^/]+/lessons/[^/]+/captions/?$`),
    capability: "write:course",
    types: FORM,
    limit: (l) => Math.min(CAPTION_FILE_MAX_BYTES, l.FILE_MAX_BYTES),
  },
  {
    path: /^\/api\/lessons\/[^/]+\/tracks(?:\/[^/]+)?\/?$/,
    capability: "write:course",
    types: FORM,
    limit: (l) => Math.min(CAPTION_FILE_MAX_BYTES, l.FILE_MAX_BYTES),
  },
];

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function mediaType(req: Request) {
  return (req.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

interface BodyLimit {
  /** The most the body may be, in bytes. */
  bytes: number;
  /** The limit a refusal names: an upload's file limit, without the room for the form around the file. */
  named: number;
}

/** The most a request may send, by who is asking (identified once, for the request's load context too). */
export async function bodyLimitFor(req: Request, res: Response, platform: Platform, limits: Limits): Promise<BodyLimit> {
  const auth = await viewerOf(req, res, platform);
  if (!auth?.role) return { bytes: ANONYMOUS_BODY_BYTES, named: ANONYMOUS_BODY_BYTES };
  const type = mediaType(req);
  const upload = UPLOADS.find((route) => route.path.test(req.path) && route.types.includes(type));
  if (upload && mayAct(auth, upload.capability)) {
    const file = upload.limit(limits);
    return { bytes: file + MULTIPART_OVERHEAD_BYTES, named: file };
  }
  return { bytes: SIGNED_IN_BODY_BYTES, named: SIGNED_IN_BODY_BYTES };
}

/** 413 naming the limit; the rest of the body is dropped unread, and the connection closed soon after. */
export function refuseBody(req: Request, res: Response) {
  if (res.headersSent) return;
  const limit = (res.locals.bodyLimit as BodyLimit | undefined)?.named ?? ANONYMOUS_BODY_BYTES;
  lingerThenClose(req, res);
  const viewer = res.locals.viewer as Viewer | undefined;
  const organization = (res.locals.tenant as { organization: { language: string } | null } | undefined)?.organization;
  sendStatusPage(req, res, 413, { limit, language: viewer?.language ?? organization?.language });
}

/** How long, and how much more, a refused body is read and dropped before its connection is closed. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * A lingering close, as web servers do it: closing a connection while the client is still sending makes the
 * kernel reset it, and a reset throws away the 413 the client has not read yet. So what still arrives is read
 * and dropped (memory stays flat) for a moment, then the connection is closed. A client whose body ends within
 * it keeps its connection.
 */
export function lingerThenClose(req: Request, res: Response) {
  // Node would close at once after the reply when the client asked for `Connection: close`; the close is ours.
  res.shouldKeepAlive = true;
  req.unpipe();
  req.removeAllListeners("data");
  let dropped = 0;
  const close = () => req.socket.destroy();
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) close();
  });
  req.once("end", () => clearTimeout(timer));
  req.socket.once("close", () => clearTimeout(timer));
  req.resume();
}

/**
 * The middleware: decides the request's limit, refuses at once a body declared larger, and leaves the limit
 * on `res.locals.bodyLimit` for whoever reads the body (bodyBytesAllowed: limitedBody, server/lane-request.ts).
 */
export function bodyLimits(platform: Platform) {
  const limits = platform.config;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    bodyLimitFor(req, res, platform, limits).then((limit) => {
      res.locals.bodyLimit = limit;
      const length = req.get("content-length");
      if (length !== undefined && !(Number(length) <= limit.bytes)) return refuseBody(req, res);
      next();
    }, next);
  };
}

/** Thrown into a body's reader when the body passes its limit (the 413 has already been sent). */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the request body passed its limit of ${limit} bytes`);
    this.name = "BodyTooLarge";
  }
}

/**
 * The request's body as a stream that ends in an error (and a 413 to the client) the moment it passes the
 * request's limit. Every reader of a request's body goes through this or counts the same way.
 */
/** How many bytes of body this request may send (the anonymous limit if none was decided). */
export function bodyBytesAllowed(res: Response) {
  return (res.locals.bodyLimit as BodyLimit | undefined)?.bytes ?? ANONYMOUS_BODY_BYTES;
}

export function limitedBody(req: Request, res: Response, onRefused?: () => void): Readable {
  const limit = bodyBytesAllowed(res);
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) {
        refuseBody(req, res);
        req.unpipe(counter);
        onRefused?.();
        return callback(new BodyTooLarge(limit));
      }
      callback(null, chunk);
    },
  });
  req.on("error", (error) => counter.destroy(error));
  return req.pipe(counter);
}
