import { lessonResource } from "~/models/lesson.server";
import { collectionRoute } from "~/kernel/resource.server";

/** Spec §7 "lessons": the generic resource calls. */
export const { loader, action } = collectionRoute(lessonResource);
