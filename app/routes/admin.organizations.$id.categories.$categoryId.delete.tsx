import { DeleteCategory, deleteCategoryAction, deleteCategoryLoader } from "~/screens/organization-categories";

export const loader = deleteCategoryLoader("admin");
export const action = deleteCategoryAction("admin");
export default DeleteCategory;
