import { EditCategory, categoryAction, categoryLoader } from "~/screens/organization-categories";

export const loader = categoryLoader("dashboard");
export const action = categoryAction("dashboard");
export default EditCategory;
