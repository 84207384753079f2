import { categoryResource } from "~/models/category.server";
import { searchRoute } from "~/kernel/resource.server";

/** Spec §7 "courses/categories": the generic resource calls. */
export const { loader, action } = searchRoute(categoryResource);
