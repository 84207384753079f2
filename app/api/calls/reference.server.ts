import { apiReferenceHtml } from "~/screens/api-reference.server";
import { call, type ApiCall } from "../contract.server";
import { openApiDocument } from "../openapi.server";

/** The description itself and its reference page, made from the declared calls. */
const bodies = new WeakMap<readonly ApiCall[], string>();

export const referenceCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/openapi.json",
    tag: "Reference",
    summary: "This description, as OpenAPI 3.1",
    access: "public",
    host: "both",
    reply: { file: "application/json" },
    errors: [],
    example: {},
    handler: ({ calls }) => {
      let body = bodies.get(calls);
      if (body === undefined) bodies.set(calls, (body = JSON.stringify(openApiDocument(calls))));
      return new Response(body, {
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Cache-Control": "public, max-age=300",
          "Access-Control-Allow-Origin": "*",
        },
      });
    },
  }),
  call({
    method: "GET",
    path: "/api/docs",
    tag: "Reference",
    summary: "The reference page for people",
    access: "public",
    host: "both",
    reply: { file: "text/html" },
    errors: [],
    example: {},
    // Rendered on the server, no script needed.
    handler: ({ context, calls }) =>
      new Response(apiReferenceHtml(calls, context.cspNonce), {
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" },
      }),
  }),
];
