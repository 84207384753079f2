import { type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { requireOrganization } from "~/utils/tenant.server";

/** docs/product.md §2 "organization settings": the settings tab of this organization. */
export function loader({ context }: LoaderFunctionArgs) {
  const { organization } = requireOrganization(context);
  return redirect(`/dashboard/organizations/${organization.id}`);
}
