import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiNotFound } from "~/utils/api.server";

/** Any /api path no route claims, with any method: a 404 in the envelope, never an HTML page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiNotFound(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiNotFound(request, context);
}
