import { materialResource } from "~/models/material.server";
import { itemRoute } from "~/utils/resource.server";

/** Spec §7 "materials": the generic resource calls. */
export const { loader, action } = itemRoute(materialResource);
