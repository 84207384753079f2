import { Categories, categoriesAction, categoriesLoader } from "~/screens/organization-categories";

export const loader = categoriesLoader("admin");
export const action = categoriesAction("admin");
export default Categories;
