import { OrganizationLayout, organizationLayoutLoader } from "~/screens/organization-layout";

export const loader = organizationLayoutLoader("admin");
export default OrganizationLayout;
