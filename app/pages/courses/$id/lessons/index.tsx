import { type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { courseLessons, findCourse } from "~/models/course-lookup.server";
import { completedLessonIds } from "~/models/learning.server";
import { nextLesson } from "~/models/player.server";
import { learnerContext } from "~/kernel/learner.server";

/**
 * `/courses/{id}/lessons` without a lesson (docs/product.md §2 "/courses/{id?}/lessons/{lessonId?}"): opens the lesson
 * the learner should watch next — the first not completed, in order, else the first. The lesson page then
 * says what access needs, if anything. A course without lessons sends back to its page.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer, person } = learnerContext(request, context);
  const id = Number(params.id);
  const course = Number.isSafeInteger(id) && id > 0 ? findCourse(db, viewer, id) : undefined;
  if (!course) throw new Response("Not Found", { status: 404 });
  const lessons = courseLessons(db, course.id);
  const done = person ? completedLessonIds(db, person.id, course.id) : new Set<number>();
  const next = nextLesson(lessons, (l) => done.has(l.id));
  throw redirect(next ? `/courses/${course.id}/lessons/${next.id}` : `/courses/${course.id}`);
}
