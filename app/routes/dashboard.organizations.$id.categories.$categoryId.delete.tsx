import { DeleteCategory, deleteCategoryAction, deleteCategoryLoader } from "~/screens/organization-categories";

export const loader = deleteCategoryLoader("dashboard");
export const action = deleteCategoryAction("dashboard");
export default DeleteCategory;
