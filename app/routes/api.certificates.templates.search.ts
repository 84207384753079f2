import { templateResource } from "~/models/certificate.server";
import { searchRoute } from "~/kernel/resource.server";

/** Spec §7 "certificates/templates": the generic resource calls. */
export const { loader, action } = searchRoute(templateResource);
