import { lessonResource } from "~/models/lesson.server";
import { itemRoute } from "~/kernel/resource.server";

/** Spec §7 "lessons": the generic resource calls. */
export const { loader, action } = itemRoute(lessonResource);
