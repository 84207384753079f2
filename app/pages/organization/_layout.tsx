import type { LoaderFunctionArgs } from "@remix-run/node";
import { OrganizationLayout, organizationLayoutLoader } from "~/screens/organization-layout";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => organizationLayoutLoader(areaOf(args.request))(args);
export default OrganizationLayout;
