import { categoryResource } from "~/models/category.server";
import { itemRoute } from "~/kernel/resource.server";

/** Spec §7 "courses/categories": the generic resource calls. */
export const { loader, action } = itemRoute(categoryResource);
