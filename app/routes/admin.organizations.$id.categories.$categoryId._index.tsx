import { EditCategory, categoryAction, categoryLoader } from "~/screens/organization-categories";

export const loader = categoryLoader("admin");
export const action = categoryAction("admin");
export default EditCategory;
