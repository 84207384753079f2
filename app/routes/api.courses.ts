import { courseResource } from "~/models/course.server";
import { collectionRoute } from "~/kernel/resource.server";

/** Spec §7 "Courses": the generic resource calls, checked against read:course / write:course. */
export const { loader, action } = collectionRoute(courseResource);
