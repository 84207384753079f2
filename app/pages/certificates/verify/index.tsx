import { type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { requireOrganization } from "~/utils/tenant.server";

/** The lookup form's target: /certificates/verify?id=… goes to that certificate's page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireOrganization(context);
  const id = (new URL(request.url).searchParams.get("id") ?? "")
    .trim()
    .toUpperCase()
    .replace(/[^0-9A-Z-]/g, "")
    .slice(0, 20);
  if (!id) throw new Response("Not Found", { status: 404 });
  return redirect(`/certificates/verify/${encodeURIComponent(id)}`);
}
