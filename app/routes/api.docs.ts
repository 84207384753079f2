import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiReferenceHtml } from "~/screens/api-reference.server";
import { apiMethodNotAllowed } from "~/utils/api.server";

/** `GET /api/docs`: the /api reference for people, rendered on the server (no script needed). */
export async function loader({ context }: LoaderFunctionArgs) {
  return new Response(apiReferenceHtml(context.cspNonce), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" },
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
