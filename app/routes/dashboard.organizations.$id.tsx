import { OrganizationLayout, organizationLayoutLoader } from "~/screens/organization-layout";

export const loader = organizationLayoutLoader("dashboard");
export default OrganizationLayout;
