import { KeptBodyResponse } from "./kept-body";

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

/** A page's reply made without a body stream (app/utils/kept-body.ts); the server writes its bytes (`pageBody`). */
export class PageReply extends KeptBodyResponse {
  readonly [PAGE_BODY]: Buffer;

  constructor(body: Buffer, init: { headers: Headers; status: number }) {
    super(null, init);
    this[PAGE_BODY] = body;
  }

  protected override keptBody() {
    return new Uint8Array(this[PAGE_BODY]);
  }
}
