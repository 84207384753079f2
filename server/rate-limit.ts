/** The key a client is counted under (the sign-in guards count guesses under it too). */
export { clientKey } from "../app/utils/client-key.server";

/**
 * Requests counted per client in fixed windows (docs/decisions/014-speed.md, "The request path"): a client's
 * window starts at its first counted request and lasts `windowMs`; past `limit` requests in it, the rest
 * are refused until it ends. This replaced express-rate-limit, whose per-request work (its promise chain,
 * checks and key making) cost about 1.3 ms of CPU on every mutation, more than the mutations themselves.
 * Memory is bounded by the clients seen in one window: ended windows are swept once per window.
 */
export class WindowLimiter {
  readonly #clients = new Map<string, { hits: number; resetAt: number }>();
  #nextSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts one request of `key`: how many it has made in its window (this one included) and when that ends. */
  hit(key: string, now = Date.now()) {
    if (now >= this.#nextSweep) this.#sweep(now);
    let client = this.#clients.get(key);
    if (!client || client.resetAt <= now) {
      client = { hits: 0, resetAt: now + this.windowMs };
      this.#clients.set(key, client);
    }
    client.hits += 1;
    return { hits: client.hits, resetAt: client.resetAt };
  }

  /** Clients whose window is open (for tests and the bench). */
  get size() {
    return this.#clients.size;
  }

  #sweep(now: number) {
    for (const [key, client] of this.#clients) if (client.resetAt <= now) this.#clients.delete(key);
    this.#nextSweep = now + this.windowMs;
  }
}
