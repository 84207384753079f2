import { KeptBodyResponse } from "./kept-body";

/**
 * A JSON `Response` that keeps its serialised text (docs/decisions/014-speed.md, "The /api lane").
 *
 * A `Response` built from a string makes a web stream for its body at once, and the server then reads that
 * stream back to send it: together about a third of a small /api call's CPU time. A `JsonReply` is built
 * without a body; the server (server/api.ts) writes its text to the socket as it is.
 * Anyone else sees an ordinary Response: `body`, `text()`, `json()`, `arrayBuffer()`, `blob()`,
 * `formData()` and `clone()` answer from a real Response made from the same text on first use, so Remix,
 * tests and anything that reads the body get the same bytes (and `bodyUsed` says the same).
 */
/**
 * Where a JsonReply keeps its text. A registered symbol: the app's build and the server's bundle each
 * carry their own copy of this module, so `instanceof` cannot tell one bundle's replies in the other.
 */
export const JSON_TEXT = Symbol.for("lectern.jsonReply.text");

/** The text of a JsonReply whose body nobody has read, else null. */
export function jsonReplyText(response: Response): string | null {
  const text = (response as { [JSON_TEXT]?: string })[JSON_TEXT];
  return typeof text === "string" && !response.bodyUsed ? text : null;
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export class JsonReply extends KeptBodyResponse {
  readonly [JSON_TEXT]: string;

  /** `serialized` is JSON text; `jsonReply(data, init)` makes it from a value. */
  constructor(serialized: string, init?: ResponseInit) {
    // As Response.json: a status that cannot carry a body cannot carry this one.
    if (init?.status !== undefined && NULL_BODY_STATUSES.has(init.status))
      throw new TypeError(`Response with null body status ${init.status} cannot have a body`);
    const headers = new Headers(init?.headers);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
    super(null, { status: init?.status, statusText: init?.statusText, headers });
    this[JSON_TEXT] = serialized;
  }

  protected override keptBody() {
    return this[JSON_TEXT];
  }

  override clone(): Response {
    if (this.bodyUsed) return this.real().clone();
    return new JsonReply(this[JSON_TEXT], { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}

/** `Response.json` without the body stream: the same status, headers and bytes. */
export function jsonReply(data: unknown, init?: ResponseInit) {
  const serialized = JSON.stringify(data) as string | undefined;
  // As Response.json: a value with no JSON form is an error, not an empty body.
  if (serialized === undefined) throw new TypeError("Value is not JSON serializable");
  return new JsonReply(serialized, init);
}
