import { Categories, categoriesAction, categoriesLoader } from "~/screens/organization-categories";

export const loader = categoriesLoader("dashboard");
export const action = categoriesAction("dashboard");
export default Categories;
