import { type ActionFunctionArgs, type LoaderFunctionArgs, type SerializeFrom } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { mayPreview } from "~/access/rules";
import { getFile } from "~/models/file.server";
import { isLessonHidden, lessonAccess } from "~/access/courses";
import { courseLessons, findCourse } from "~/models/course-lookup.server";
import { completeLesson, courseProgress } from "~/models/learning.server";
import { getLesson } from "~/models/lesson.server";
import { quizForLesson } from "~/models/quiz-player.server";
import { scormPlayerData } from "~/models/scorm.server";
import { launchPackage, packagePlayerData, type LaunchAsk } from "~/models/packages/player.server";
import { getUser } from "~/models/user.server";
import { episodeItems } from "~/models/player.server";
import { chooseTracks, listTracks, playerPreferencesOf, transcriptOf } from "~/models/captions.server";
import { learnerContext } from "~/kernel/learner.server";
import { trackUrl } from "~/kernel/captions.server";
import { sanitizeRichText } from "~/utils/sanitize.server";
import { formRefusal, readForm } from "~/utils/form-data.server";

/*
 * The lesson page's loader and action (app/pages/courses/$id/lessons/$lessonId.tsx re-exports them): kept
 * apart from the route so the player's components can take the page's data type from here without importing
 * the route that renders them.
 */

async function load(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const ctx = learnerContext(request, context);
  const course = findCourse(ctx.db, ctx.viewer, Number(params.id) || -1);
  const lesson = course ? getLesson(ctx.db, Number(params.lessonId) || -1) : undefined;
  if (!course || !lesson || lesson.courseId !== course.id || isLessonHidden(ctx.viewer, course, lesson))
    throw new Response("Not Found", { status: 404 });
  return { ...ctx, learner: ctx.person, course, lesson, access: lessonAccess(ctx.db, ctx.viewer, course, lesson) };
}

/**
 * The lesson player (docs/product.md §2 /courses/{id}/lessons/{lessonId}): video, text, image, SCORM or quiz, the
 * episodes list beside it, and a form that marks the lesson complete. Without JavaScript the video is a
 * plain <video controls>; with it, the player's controls and shortcuts (components/player/video-player.tsx).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer, course, lesson, access, learner, organization } = await load(request, context, params);
  const lessons = courseLessons(db, course.id);
  const image = (fileId: number) => context.platform.imageUrl(organization.id, fileId, "cover");
  const episodes = episodeItems(db, viewer, { course, lessons, image });
  const mine = episodes.find((e) => e.id === lesson.id);
  const progress = learner ? courseProgress(db, learner.id, course.id) : null;
  const url = new URL(request.url);
  const index = lessons.findIndex((l) => l.id === lesson.id);
  const file = access.allowed && lesson.fileId ? getFile(db, lesson.fileId) : undefined;
  // `?t=`: a moment to start at (a transcript's cue, a search hit); the video's own `#t=` without JavaScript.
  const t = /^\d{1,6}$/.test(url.searchParams.get("t") ?? "") ? Number(url.searchParams.get("t")) : null;
  const media = file
    ? {
        url: context.platform.signFileUrl(organization.id, file, 6 * 3600).url + (t && file.kind === "video" ? `#t=${t}` : ""),
        mime: file.mime,
        kind: file.kind,
      }
    : null;
  const user = learner ? getUser(db, learner.id) : undefined;
  const captions =
    lesson.kind === "video" && file?.kind === "video"
      ? lessonCaptions(context, {
          db,
          lessonId: lesson.id,
          learnerId: learner?.id,
          language: viewer.language,
          asked: url.searchParams.get("transcript"),
        })
      : null;
  const { platform } = context;
  const scorm =
    access.allowed && learner && lesson.kind === "scorm"
      ? scormPlayerData(db, {
          signer: platform,
          contentOrigin: platform.scormOrigin(organization.id),
          organizationId: organization.id,
          lesson,
          userId: learner.id,
          preview: mayPreview(viewer),
        })
      : null;
  const contentPackage =
    access.allowed && learner && lesson.kind === "package"
      ? packagePlayerData(db, { lesson, userId: learner.id, language: viewer.language, completed: mine?.state === "completed" })
      : null;
  return {
    scorm,
    contentPackage,
    /** A launch that could not be made (`?launch_error=1`: the AU is no longer in the package). */
    launchError: url.searchParams.get("launch_error") === "1",
    course: {
      id: course.id,
      title: course.title,
      progress:
        progress && progress.lessons > 0 ? { percent: progress.percent, done: progress.completed_lessons, total: progress.lessons } : null,
    },
    lesson: {
      id: lesson.id,
      title: lesson.title,
      kind: lesson.kind,
      body: access.allowed ? sanitizeRichText(lesson.body) : "",
      videoUrl: access.allowed ? lesson.videoUrl : null,
      completed: mine?.state === "completed",
      durationSeconds: lesson.durationSeconds,
      positionSeconds: t ?? (mine && mine.state === "in_progress" ? mine.positionSeconds : 0),
      // A video shows the course's cover until it plays: the page's largest picture is then drawn at once,
      // not when the video's first frame arrives, after the place is resumed (docs/decisions/034-lighthouse.md).
      poster: lesson.kind === "video" && course.coverFileId ? `${image(course.coverFileId)}?w=640` : null,
      number: index + 1,
    },
    media,
    captions,
    access: access.allowed ? null : access.reason,
    loginUrl: `/auth/login?${new URLSearchParams({ redirectTo: `/courses/${course.id}/lessons/${lesson.id}` })}`,
    episodes: episodes.map(({ positionSeconds: _position, ...e }) => e),
    previousId: index > 0 ? lessons[index - 1].id : null,
    nextId: index >= 0 && index < lessons.length - 1 ? lessons[index + 1].id : null,
    // Quiz lessons: the player state (never a correct answer before submission; see quiz-player.server.ts).
    quiz: lesson.kind === "quiz" && access.allowed && learner ? quizForLesson(db, { lesson, userId: learner.id }) : null,
    quizConfirm: url.searchParams.get("quiz_confirm") === "1",
    quizError: url.searchParams.get("quiz_error"),
    showInstructions: Boolean(user && !user.playerInstructionsShownAt && lesson.kind === "video" && access.allowed),
    /** The instructions asked for without JavaScript (the shortcuts link is `?instructions=1`). */
    instructionsAsked: url.searchParams.get("instructions") === "1",
    path: `/courses/${course.id}/lessons/${lesson.id}`,
  };
}

/**
 * A video lesson's captions for the player (docs/decisions/036-captions.md): its tracks with their signed
 * addresses (rounded to the hour, so a page's `<track>`s keep one address), the one shown by default (the
 * learner's last choice, else their language's), the transcript's track and cues, and the playback speed.
 */
function lessonCaptions(
  context: LoaderFunctionArgs["context"],
  {
    db,
    lessonId,
    learnerId,
    language,
    asked,
  }: { db: Parameters<typeof listTracks>[0]; lessonId: number; learnerId?: number; language: string; asked: string | null },
) {
  const preferences = learnerId ? playerPreferencesOf(db, learnerId) : { captions: null, playbackRate: 1 };
  const organization = context.organization!;
  const tracks = listTracks(db, lessonId).flatMap((track) => {
    const signed = trackUrl(context, organization, db, track);
    return signed ? [{ id: track.id, language: track.language, label: track.label, url: signed.url }] : [];
  });
  const { shown, transcript } = chooseTracks(tracks, { preference: preferences.captions, language, asked });
  return {
    tracks,
    shown: shown?.language ?? null,
    transcript: transcript ? { language: transcript.language, cues: transcriptOf(db, transcript.id) } : null,
    /** The transcript was asked for by its language (the page then opens it). */
    transcriptAsked: Boolean(asked),
    rate: preferences.playbackRate,
    remembered: Boolean(learnerId),
  };
}

/** `intent=complete`: marks the lesson seen (and the course, when it was the last one left). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { db, course, lesson, access, learner, viewer } = await load(request, context, params);
  if (!learner) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: `/courses/${course.id}/lessons/${lesson.id}` })}`);
  if (!access.allowed) throw new Response("Forbidden", { status: 403 });
  const form = await readForm(request, context);
  const intent = form.get("intent");
  if (lesson.kind === "package" && (intent === "start" || intent === "retake" || intent === "review"))
    return launchAction(request, context, { db, lesson, learnerId: learner.id, viewer, ask: intent, au: form.get("au") });
  // SCORM, xAPI and cmi5 lessons are completed by their package, quiz lessons only by passing (docs/decisions/020, 013, 044).
  if (intent !== "complete" || lesson.kind === "scorm" || lesson.kind === "package" || lesson.kind === "quiz")
    throw await formRefusal(context, 400);
  completeLesson(db, { userId: learner.id, lesson });
  const next = courseLessons(db, course.id).find((l) => l.position > lesson.position);
  return redirect(next ? `/courses/${course.id}/lessons/${next.id}` : `/courses/${course.id}`);
}

/**
 * Opens an xAPI package or a cmi5 AU (docs/decisions/044-xapi-cmi5-packages.md): the launch is made here and its
 * address handed to the page; the AU sends the learner back to this page when it exits.
 */
function launchAction(request: Request, context: ActionFunctionArgs["context"], { db, lesson, learnerId, viewer, ask, au }: LaunchArgs) {
  const organization = context.organization!;
  const { platform } = context;
  const path = `/courses/${lesson.courseId}/lessons/${lesson.id}`;
  const launched = launchPackage(
    db,
    { lesson, userId: learnerId, auId: typeof au === "string" && au.length <= 2048 ? au : null, ask, language: viewer.language },
    {
      signer: platform,
      contentOrigin: platform.scormOrigin(organization.id),
      organizationId: organization.id,
      origin: new URL(request.url).origin,
      returnPath: path,
      preview: mayPreview(viewer),
    },
  );
  // Answered as the page's data, not a redirect: a form's redirect to another origin is stopped by the page's
  // `form-action 'self'`. The page opens the address at once with JavaScript, or as a link without it.
  return launched.ok ? { launch: { url: launched.url, title: launched.title } } : redirect(`${path}?launch_error=1`, 303);
}

type LaunchArgs = Pick<Awaited<ReturnType<typeof load>>, "db" | "lesson" | "viewer"> & {
  learnerId: number;
  ask: LaunchAsk;
  au: FormDataEntryValue | null;
};

/** What the lesson page's components are given. */
export type LessonPageData = SerializeFrom<typeof loader>;
