import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { BodyTooLarge, bodyBytesAllowed, limitedBody, refuseBody } from "./body-limits";

/**
 * The web Request an /api loader or action gets on /api (server/api.ts, decision 014
 * "Fourth round"). Remix's adapter builds one with a body stream over the socket and a signal that follows
 * an AbortController: in undici that following alone costs more than the rest of the Request. Here:
 *  - the signal is made on first use (almost no /api call asks for it) and is aborted, as Remix's is,
 *    when the connection closes before the reply is finished;
 *  - a small body (JSON, a form; at most the request's limit, server/body-limits.ts) is read whole before
 *    the action runs, and `json()`, `text()` and `arrayBuffer()` answer from it. Everything else
 *    (`body`, `formData()`, `blob()`, `clone()`) is answered by an ordinary Request made from the same
 *    bytes on first use.
 * The URL is built as Remix builds it (its `createRemixRequest`): scheme and host name as Express reads
 * them (so "trust proxy" holds), the port from X-Forwarded-Host or Host, then the original URL.
 */
export class LaneRequest extends Request {
  readonly #bytes: Buffer | null;
  #used = false;
  #full: Request | null = null;
  #controller: AbortController | null = null;
  #aborted = false;

  constructor(url: string, method: string, headers: Headers, bytes: Buffer | null) {
    super(url, { method, headers });
    this.#bytes = bytes;
  }

  override get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort();
    }
    return this.#controller.signal;
  }

  /** The connection closed before the reply was finished. */
  abort() {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#controller?.abort();
  }

  #real(): Request {
    // A body already read by json()/text()/arrayBuffer() is gone, as it is on any Request.
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    return (this.#full ??= new Request(this.url, {
      method: this.method,
      headers: this.headers,
      body: this.#bytes ? new Uint8Array(this.#bytes) : null,
      signal: this.signal,
    }));
  }

  /** The body's bytes, once: a second read fails as it does on any Request. */
  #take(): Buffer {
    if (this.bodyUsed) throw new TypeError("Body is unusable: Body has already been read");
    if (!this.#bytes) return Buffer.alloc(0);
    this.#used = true;
    return this.#bytes;
  }

  override get body() {
    if (!this.#bytes || this.#used) return null;
    return this.#real().body;
  }

  override get bodyUsed() {
    return this.#used || (this.#full?.bodyUsed ?? false);
  }

  override async text() {
    return decoder.decode(this.#take());
  }

  override async json() {
    return JSON.parse(decoder.decode(this.#take())) as unknown;
  }

  override async arrayBuffer() {
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  override async blob() {
    return this.#real().blob();
  }

  override async formData() {
    return this.#real().formData();
  }

  override clone(): Request {
    return this.#real().clone();
  }
}

/** UTF-8 without a byte-order mark, as the Fetch standard decodes text and JSON bodies. */
const decoder = new TextDecoder();

/**
 * A LaneRequest for an Express request, or null when its body should be streamed as Remix streams it (an
 * upload, a body without a length). The body, if any, is read first.
 */
export async function laneRequest(req: ExpressRequest, res: ExpressResponse, url: string): Promise<LaneRequest | null> {
  let bytes: Buffer | null = null;
  if (req.method !== "GET" && req.method !== "HEAD") {
    const length = req.headers["content-length"];
    const type = (req.headers["content-type"] ?? "").toLowerCase();
    if (length === undefined || type.startsWith("multipart/")) return null;
    bytes = await readBody(req, res);
  }
  const request = new LaneRequest(url, req.method, requestHeaders(req), bytes);
  res.on("close", () => {
    if (!res.writableFinished) request.abort();
  });
  return request;
}

export function remixUrl(req: ExpressRequest): URL {
  const forwardedPort = req.get("X-Forwarded-Host")?.split(":")[1];
  const hostPort = req.get("host")?.split(":")[1];
  const a = Number.parseInt(forwardedPort as string, 10);
  const b = Number.parseInt(hostPort as string, 10);
  const port = Number.isSafeInteger(a) ? a : Number.isSafeInteger(b) ? b : "";
  return new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
}

/** Remix's createRemixHeaders: the request's headers as Express holds them (after this server's own clean-up). */
function requestHeaders(req: ExpressRequest) {
  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

/** The client went away before its body had arrived: there is nobody to answer. */
export class ClientGone extends Error {
  constructor() {
    super("the client closed the connection before its request body arrived");
    this.name = "ClientGone";
  }
}

function readBody(req: ExpressRequest, res: ExpressResponse): Promise<Buffer> {
  const limit = bodyBytesAllowed(res);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= limit) return void chunks.push(chunk);
      // Past the limit (a body that lied about its length): refused, and the rest dropped unread.
      req.off("data", onData);
      refuseBody(req, res);
      reject(new BodyTooLarge(limit));
    };
    req.on("data", onData);
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on("error", reject);
    req.on("aborted", () => reject(new ClientGone()));
  });
}

/**
 * A web Request streaming the Express request's body, as Remix's Express adapter builds one, except that the
 * body is counted against the request's limit (server/body-limits.ts) while it streams: uploads, and bodies
 * without a length. The signal is aborted when the connection closes before the reply is finished.
 */
export function streamingRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers: requestHeaders(req), signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    // A refused body aborts the request, so its handler stops and nothing is logged as a failure.
    init.body = createReadableStreamFromReadable(limitedBody(req, res, () => controller.abort()));
    init.duplex = "half";
  }
  return new Request(remixUrl(req).href, init);
}
