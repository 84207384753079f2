/**
 * The bytes of a page's reply, kept on the Response under a registered symbol (the app's build and the
 * server's bundle each carry their own copy of this module), so the server can write them out as they are
 * instead of reading them back through the Response's body stream (server/app.ts).
 */
export const PAGE_BODY = Symbol.for("lectern.page.body");

/** The page's bytes when `response` is a page made here whose body nobody has read, else null. */
export function pageBody(response: Response): Buffer | null {
  const body = (response as unknown as { [PAGE_BODY]?: Buffer })[PAGE_BODY];
  return body && !response.bodyUsed ? body : null;
}

/**
 * A page's reply made without a body stream: undici builds a web stream for a Response's body at once,
 * which cost more (~45 µs) than the rest of the Response, and the server writes the bytes directly
 * (`pageBody`). Anyone else sees an ordinary Response: `body`, `text()`, `json()`, `arrayBuffer()`,
 * `blob()`, `formData()` and `clone()` answer from a real Response made from the same bytes on first use
 * (as app/utils/json-reply.ts does for /api replies).
 */
export class PageReply extends Response {
  readonly [PAGE_BODY]: Buffer;
  #full: Response | null = null;

  constructor(body: Buffer, init: { headers: Headers; status: number }) {
    super(null, init);
    this[PAGE_BODY] = body;
  }

  #real(): Response {
    return (this.#full ??= new Response(new Uint8Array(this[PAGE_BODY]), { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  override get body() {
    return this.#real().body;
  }

  override get bodyUsed() {
    return this.#full?.bodyUsed ?? false;
  }

  override text() {
    return this.#real().text();
  }

  override json() {
    return this.#real().json();
  }

  override arrayBuffer() {
    return this.#real().arrayBuffer();
  }

  override blob() {
    return this.#real().blob();
  }

  override formData() {
    return this.#real().formData();
  }

  override clone(): Response {
    return this.#real().clone();
  }
}
