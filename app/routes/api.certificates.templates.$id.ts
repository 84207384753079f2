import { templateResource } from "~/models/certificate.server";
import { itemRoute } from "~/kernel/resource.server";

/** Spec §7 "certificates/templates": the generic resource calls. */
export const { loader, action } = itemRoute(templateResource);
