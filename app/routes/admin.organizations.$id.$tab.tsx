import { Placeholder, placeholderLoader } from "~/screens/organization-placeholder";

export const loader = placeholderLoader("admin");
export default Placeholder;
