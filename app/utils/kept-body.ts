/**
 * A Response whose body is kept as it is (text, bytes) and made into a real Response only when someone
 * reads it. undici turns a Response's body into a web stream as soon as the Response is made, which cost
 * more than the rest of a small reply (docs/decisions/014-speed.md); the server writes a kept body out
 * directly instead. Anyone else sees an ordinary Response: `body`, `text()`, `json()`, `arrayBuffer()`,
 * `bytes()`, `blob()`, `formData()` and `clone()` answer from the real one, and `bodyUsed` says what it
 * says. (A body method Response gains later would read the empty body this object was made with: a
 * unit test lists Response's body methods and fails on one not answered here.)
 * Subclasses: JsonReply (app/utils/json-reply.ts), PageReply (app/utils/page-body.ts).
 */
export abstract class KeptBodyResponse extends Response {
  #full: Response | null = null;

  /** The body the real Response is made from. */
  protected abstract keptBody(): BodyInit;

  /** The same reply as an ordinary Response, made on first use of the body. */
  protected real(): Response {
    return (this.#full ??= new Response(this.keptBody(), { status: this.status, statusText: this.statusText, headers: this.headers }));
  }

  override get body() {
    return this.real().body;
  }

  override get bodyUsed() {
    return this.#full?.bodyUsed ?? false;
  }

  override text() {
    return this.real().text();
  }

  override json() {
    return this.real().json();
  }

  override arrayBuffer() {
    return this.real().arrayBuffer();
  }

  override bytes() {
    return this.real().bytes();
  }

  override blob() {
    return this.real().blob();
  }

  override formData() {
    return this.real().formData();
  }

  /** A copy with the headers as they are now (the real Response holds them as they were on first read). */
  override clone(): Response {
    const copy = this.real().clone();
    return new Response(copy.body, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}
