import { materialResource } from "~/models/material.server";
import { itemRoute } from "~/kernel/resource.server";

/** Spec §7 "materials": the generic resource calls. */
export const { loader, action } = itemRoute(materialResource);
