/**
 * A Response whose body is kept as it is (text, bytes) and made into a real Response only when someone
 * reads it. undici turns a Response's body into a web stream as soon as the Response is made, which cost
 * more than the rest of a small reply (docs/decisions/014-speed.md); the server writes a kept body out
 * directly instead. Anyone else sees an ordinary Response: `body`, `text()`, `json()`, `arrayBuffer()`,
 * `blob()`, `formData()` and `clone()` answer from the real one, and `bodyUsed` says what it says.
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

  override blob() {
    return this.real().blob();
  }

  override formData() {
    return this.real().formData();
  }

  override clone(): Response {
    return this.real().clone();
  }
}
