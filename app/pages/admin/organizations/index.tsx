import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AdminOrganizations } from "~/screens/admin-organizations";
import { organizationsAction, organizationsLoader } from "~/screens/admin-organizations.server";

/** docs/product.md §2: organizations, listed with name and URL (searched, filtered, sorted and paged); created with name and language. */
export const loader = (args: LoaderFunctionArgs) => organizationsLoader(args);
export const action = (args: ActionFunctionArgs) => organizationsAction(args);
export default AdminOrganizations;
