import { courseResource } from "~/models/course.server";
import { searchRoute } from "~/kernel/resource.server";

/** Spec §7 "Courses": the generic resource calls, checked against read:course / write:course. */
export const { loader, action } = searchRoute(courseResource);
