import { materialResource } from "~/models/material.server";
import { searchRoute } from "~/kernel/resource.server";

/** Spec §7 "materials": the generic resource calls. */
export const { loader, action } = searchRoute(materialResource);
