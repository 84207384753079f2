import { type ActionFunctionArgs, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { z } from "zod";
import { courseAssignment } from "~/models/assignment-learner.server";
import { courseCertificateSummary } from "~/models/certificate.server";
import { courseLinks } from "~/models/course.server";
import { getFile } from "~/models/file.server";
import { courseAccess } from "~/access/courses";
import { isBookmarked, setBookmark } from "~/models/bookmarks.server";
import { courseLessons, findCourse } from "~/models/course-lookup.server";
import { courseProgress } from "~/models/learning.server";
import { courseRating, rateCourse } from "~/models/ratings.server";
import { listMaterials } from "~/models/material.server";
import { pathsOfCourse } from "~/models/paths/learner.server";
import { episodeItems, nextLesson, totalDuration } from "~/models/player.server";
import { learnerContext } from "~/kernel/learner.server";
import { retakeCourse } from "~/models/recertification.server";
import { courseCompletionNote } from "~/screens/recertification.server";
import { richTextToPlain, sanitizeRichText } from "~/utils/sanitize.server";
import { formatDate } from "~/utils/dates";
import { formRefusal, readForm } from "~/utils/form-data.server";

/*
 * The course page's loader and action (app/pages/courses/$id/index.tsx re-exports them): kept apart from
 * the route so the page's components can take its data type from here without importing the route.
 */

function courseId(params: LoaderFunctionArgs["params"]) {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response("Not Found", { status: 404 });
  return id;
}

/** The first sentences of the description, for the hero (the whole text is further down). */
const SUMMARY_LENGTH = 220;

function summary(text: string, max = SUMMARY_LENGTH) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max - 20)).trimEnd()}…`;
}

/**
 * docs/product.md §2 /courses/{id}: a cover hero with the big play button (to the next lesson to watch), the episodes
 * with their length and the learner's state, materials, links, rating, bookmark, the access message and the
 * certificate once earned.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer, person: learner, organization } = learnerContext(request, context);
  const course = findCourse(db, viewer, courseId(params));
  if (!course) throw new Response("Not Found", { status: 404 });
  const access = courseAccess(db, viewer, course);
  const lessons = courseLessons(db, course.id);
  const image = (fileId: number) => context.platform.imageUrl(organization.id, fileId, "cover");
  const episodes = episodeItems(db, viewer, { course, lessons, image });
  const sign = (fileId: number) => {
    const file = getFile(db, fileId);
    return file ? context.platform.signFileUrl(organization.id, file, context.platform.config.DOWNLOAD_TTL_SECONDS).url : null;
  };
  const next = nextLesson(episodes, (e) => e.state === "completed");
  // Lessons under way (the one lesson state: a SCORM package committed to, a quiz begun, a video played).
  const inProgress = episodes.filter((e) => e.state === "in_progress").length;
  const progress = learner ? courseProgress(db, learner.id, course.id) : null;
  // "Assigned to you — due …" (issue 34): one indexed read of the learner's assignment of this course.
  const assigned = learner ? courseAssignment(db, viewer, course.id) : null;
  // Recertification (issue 34): a completion that expires, and whether it is being renewed.
  const completion = learner ? courseCompletionNote(db, learner.id, course.id, viewer.language) : null;
  return {
    course: {
      id: course.id,
      title: course.title,
      type: course.type,
      // Sanitised when saved, and again here: rows written before sanitising existed are made safe too.
      description: sanitizeRichText(course.description),
      summary: summary(richTextToPlain(course.description)),
      // The full text is shown again under "About" only when the hero's summary is not all of it.
      aboutNeeded: richTextToPlain(course.description).length > SUMMARY_LENGTH || /<(a|img|ul|ol|h\d|table)\b/i.test(course.description),
      externalUrl: access.allowed ? course.externalUrl : null,
      download: access.allowed && course.fileId ? sign(course.fileId) : null,
      published: course.published,
      cover: course.coverFileId ? image(course.coverFileId) : null,
    },
    access: access.allowed ? null : access.reason,
    signedIn: Boolean(learner),
    loginUrl: `/auth/login?${new URLSearchParams({ redirectTo: `/courses/${course.id}` })}`,
    episodes: episodes.map(({ positionSeconds: _position, ...e }) => e),
    duration: totalDuration(lessons),
    next: next ? { id: next.id, title: next.title, number: episodes.indexOf(next) + 1, state: next.state } : null,
    progress:
      progress && progress.lessons > 0
        ? {
            percent: progress.percent,
            done: progress.completed_lessons,
            inProgress,
            total: progress.lessons,
            completed: progress.completed && !completion?.renewing,
          }
        : null,
    materials: access.allowed ? listMaterials(db, course.id).map((m) => ({ id: m.id, title: m.title, url: sign(m.fileId) })) : [],
    links: access.allowed ? courseLinks(db, course.id).map((l) => ({ id: l.id, title: l.title, url: l.url })) : [],
    rating: courseRating(db, course.id, learner?.id),
    bookmarked: learner ? isBookmarked(db, learner.id, course.id) : false,
    certificate: learner ? courseCertificateSummary(db, learner.id, course.id) : null,
    assignment: assigned
      ? {
          state: assigned.state,
          // A local day, written out on the server like the page's other dates.
          due: formatDate(`${assigned.dueOn}T12:00:00Z`, { timeZone: "UTC" }),
          done: assigned.completedAt ? formatDate(assigned.completedAt) : null,
        }
      : null,
    completion,
    // Learning paths (issue 49): the learner's paths that hold this course, and which step it is.
    paths: learner ? pathsOfCourse(db, viewer, learner.id, course.id) : [],
  };
}

/** What the course page's components are given. */
export type CoursePageData = SerializeFrom<typeof loader>;

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("bookmark") }),
  z.object({ intent: z.literal("unbookmark") }),
  z.object({ intent: z.literal("rate"), stars: z.coerce.number().int().min(1).max(5) }),
  // Recertification (issue 34): take a course whose completion expired again.
  z.object({ intent: z.literal("retake") }),
]);

/** Bookmark and rate (signed-in learners; rating also needs access to the course). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { db, viewer, person: learner } = learnerContext(request, context);
  const course = findCourse(db, viewer, courseId(params));
  if (!course) throw new Response("Not Found", { status: 404 });
  if (!learner) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: `/courses/${course.id}` })}`);
  const parsed = actionSchema.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) throw await formRefusal(context, 400);
  if (parsed.data.intent === "retake") {
    const result = retakeCourse(db, viewer, course);
    if (!result.ok) throw new Response(result.status === 403 ? "Forbidden" : "Conflict", { status: result.status });
  } else if (parsed.data.intent === "rate") {
    if (!courseAccess(db, viewer, course).allowed) throw new Response("Forbidden", { status: 403 });
    rateCourse(db, learner.id, course.id, parsed.data.stars);
  } else {
    setBookmark(db, learner.id, course.id, parsed.data.intent === "bookmark");
  }
  return redirect(`/courses/${course.id}`);
}
