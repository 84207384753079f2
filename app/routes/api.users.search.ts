import { userResource } from "~/models/user-resource.server";
import { searchRoute } from "~/kernel/resource.server";

/** Spec §7 "Users": the generic resource calls, checked against read:user (scoped for group admins). */
export const { loader, action } = searchRoute(userResource);
