import type { Response } from "express";

/**
 * A rendered page kept for later replies (server/page-cache.ts, server/learner-page-cache.ts): its bytes as
 * they were sent, outside V8's heap, and where the CSP nonce of the reply it was rendered for stands in
 * them. Kept as JavaScript strings, a page with one character beyond Latin-1 (a ▶, a —) took two bytes a
 * character on the heap, and joining a copy for each reply left garbage at the rate pages were served.
 */
export interface KeptBody {
  body: Buffer;
  nonceAt: number[];
  nonceLength: number;
}

export function keptBody(body: Buffer, nonce: string): KeptBody {
  const nonceBytes = Buffer.from(nonce);
  const nonceAt: number[] = [];
  for (let at = body.indexOf(nonceBytes); at !== -1; at = body.indexOf(nonceBytes, at + nonceBytes.length)) nonceAt.push(at);
  return { body, nonceAt, nonceLength: nonceBytes.length };
}

/**
 * Sends a kept page with this reply's nonce where the old one stood (a nonce is 128 random bits, so it
 * does not occur in a page by chance): slices of the kept bytes, corked into one write to the socket, with
 * their length. Status and headers are the caller's.
 */
export function sendKeptBody(res: Response, kept: KeptBody, nonce: string) {
  const nonceBytes = Buffer.from(nonce);
  res.setHeader("Content-Length", String(kept.body.length + kept.nonceAt.length * (nonceBytes.length - kept.nonceLength)));
  res.cork();
  let from = 0;
  for (const at of kept.nonceAt) {
    res.write(kept.body.subarray(from, at));
    res.write(nonceBytes);
    from = at + kept.nonceLength;
  }
  res.end(kept.body.subarray(from));
}

/**
 * Kept pages by key, least recently used first out, within `maxBytes` of page bytes (a page larger than a
 * quarter of that is not kept).
 */
export class KeptPages<T extends { page: KeptBody }> {
  readonly #pages = new Map<string, T>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  get size() {
    return this.#pages.size;
  }

  get bytes() {
    return this.#bytes;
  }

  /** The entry kept under `key`; `use` marks it the most recently used. */
  get(key: string, { use = false } = {}): T | undefined {
    const entry = this.#pages.get(key);
    if (entry && use) {
      this.#pages.delete(key);
      this.#pages.set(key, entry);
    }
    return entry;
  }

  /** Whether a page of this many bytes may be kept. */
  fits(bytes: number) {
    return bytes <= this.maxBytes / 4;
  }

  set(key: string, entry: T) {
    this.forget(key);
    this.#pages.set(key, entry);
    this.#bytes += entry.page.body.length;
    for (const [oldest] of this.#pages) {
      if (this.#bytes <= this.maxBytes) break;
      this.forget(oldest);
    }
  }

  forget(key: string) {
    const entry = this.#pages.get(key);
    if (!entry) return;
    this.#pages.delete(key);
    this.#bytes -= entry.page.body.length;
  }

  clear() {
    this.#pages.clear();
    this.#bytes = 0;
  }
}
