import { Placeholder, placeholderLoader } from "~/screens/organization-placeholder";

export const loader = placeholderLoader("dashboard");
export default Placeholder;
