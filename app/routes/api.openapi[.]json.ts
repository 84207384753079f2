import type { ActionFunctionArgs } from "@remix-run/node";
import { openApiDocument } from "~/api/openapi.server";
import { apiMethodNotAllowed } from "~/utils/api.server";

let body: string | null = null;

/** `GET /api/openapi.json`: the OpenAPI 3.1 description of every /api call, made from their contracts (decision 023). */
export async function loader() {
  body ??= JSON.stringify(openApiDocument());
  return new Response(body, {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
