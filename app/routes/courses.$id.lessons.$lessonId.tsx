import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import ReactPlayer from "react-player";
import { useTranslation } from "react-i18next";
import { AccessMessage } from "~/components/access-message";
import { QuizPlayer } from "~/components/quiz/quiz-player";
import { ScormPlayer } from "~/components/scorm/scorm-player";
import { getFile } from "~/models/file.server";
import { completedLessonIds, completeLesson, courseLessons, lessonAccess, publishedCourse } from "~/models/learning.server";
import { getLesson } from "~/models/lesson.server";
import { quizForLesson, quizLessonHidden } from "~/models/quiz.server";
import { scormPlayerData } from "~/models/scorm.server";
import { getUser } from "~/models/user.server";
import quizStyles from "~/styles/quiz.css";
import { learnerContext } from "~/utils/learner.server";
import { sanitizeRichText } from "~/utils/sanitize.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: quizStyles }];

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...matches.flatMap((m) => m.meta ?? []).filter((m) => !("title" in m)),
  { title: data ? `${data.lesson.title} · ${data.course.title}` : "" },
];

async function load(request: Request, context: LoaderFunctionArgs["context"], params: LoaderFunctionArgs["params"]) {
  const ctx = await learnerContext(request, context);
  const course = publishedCourse(ctx.db, Number(params.id) || -1, { includeDrafts: ctx.learner?.canPreview });
  const lesson = course ? getLesson(ctx.db, Number(params.lessonId) || -1) : undefined;
  if (!course || !lesson || lesson.courseId !== course.id || quizLessonHidden(course, lesson, ctx.learner)) throw new Response("Not Found", { status: 404 });
  return { ...ctx, course, lesson, access: lessonAccess(ctx.db, course, lesson, ctx.learner) };
}

/**
 * The lesson player (spec §2 /courses/{id}/lessons/{lessonId}): video, text or image, the episodes list,
 * and a form that marks the lesson complete. Without JavaScript the video is a plain <video controls>;
 * with it, skip buttons of 15 seconds (spec §9) and heartbeats that save the place and the watch time.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, course, lesson, access, learner, organization } = await load(request, context, params);
  const lessons = courseLessons(db, course.id);
  const done = learner ? completedLessonIds(db, learner.id, course.id) : new Set<number>();
  const index = lessons.findIndex((l) => l.id === lesson.id);
  const file = access.allowed && lesson.fileId ? getFile(db, lesson.fileId) : undefined;
  const media = file ? { url: context.platform.signFileUrl(organization.id, file, 6 * 3600).url, mime: file.mime, kind: file.kind } : null;
  const user = learner ? getUser(db, learner.id) : undefined;
  const { platform } = context;
  const scorm =
    access.allowed && learner && lesson.kind === "scorm"
      ? scormPlayerData(db, { signer: platform, contentOrigin: platform.scormOrigin(organization.id), organizationId: organization.id, lesson, userId: learner.id, preview: learner.canPreview })
      : null;
  return {
    scorm,
    course: { id: course.id, title: course.title },
    lesson: {
      id: lesson.id,
      title: lesson.title,
      kind: lesson.kind,
      body: access.allowed ? sanitizeRichText(lesson.body) : "",
      videoUrl: access.allowed ? lesson.videoUrl : null,
      completed: done.has(lesson.id),
    },
    media,
    access: access.allowed ? null : access.reason,
    loginUrl: `/auth/login?${new URLSearchParams({ redirectTo: `/courses/${course.id}/lessons/${lesson.id}` })}`,
    episodes: lessons.map((l) => ({ id: l.id, title: l.title, completed: done.has(l.id), current: l.id === lesson.id })),
    previousId: index > 0 ? lessons[index - 1].id : null,
    nextId: index >= 0 && index < lessons.length - 1 ? lessons[index + 1].id : null,
    // Quiz lessons: the player state (never a correct answer before submission; see quiz.server.ts).
    quiz: lesson.kind === "quiz" && access.allowed && learner ? quizForLesson(db, { lesson, userId: learner.id }) : null,
    quizConfirm: new URL(request.url).searchParams.get("quiz_confirm") === "1",
    quizError: new URL(request.url).searchParams.get("quiz_error"),
    showInstructions: Boolean(user && !user.playerInstructionsShownAt && lesson.kind === "video"),
  };
}

/** `intent=complete`: marks the lesson seen (and the course, when it was the last one left). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { db, course, lesson, access, learner } = await load(request, context, params);
  if (!learner) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: `/courses/${course.id}/lessons/${lesson.id}` })}`);
  if (!access.allowed) throw new Response("Forbidden", { status: 403 });
  const form = await request.formData();
  // SCORM lessons are completed by their package, quiz lessons only by passing (docs/decisions/020, 013).
  if (form.get("intent") !== "complete" || lesson.kind === "scorm" || lesson.kind === "quiz") return json({ error: "validation.invalid" }, { status: 400 });
  completeLesson(db, { userId: learner.id, lesson });
  const next = courseLessons(db, course.id).find((l) => l.position > lesson.position);
  return redirect(next ? `/courses/${course.id}/lessons/${next.id}` : `/courses/${course.id}`);
}

export default function LessonPlayer() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { lesson, course } = data;
  const revalidator = useRevalidator();
  return (
    <div className="player-layout">
      <article className="player">
        <p>
          <Link to={`/courses/${course.id}`}>← {t("learn.back")}</Link>
        </p>
        <h1>{lesson.title}</h1>
        {data.access ? (
          <AccessMessage reason={data.access} loginUrl={data.loginUrl} />
        ) : (
          <>
            {lesson.kind === "video" ? <Video lessonId={lesson.id} src={data.media?.url ?? lesson.videoUrl} mime={data.media?.mime} /> : null}
            {lesson.kind === "image" && data.media ? <img src={data.media.url} alt={lesson.title} className="lesson-image" /> : null}
            {lesson.body ? <div className="rich-text" dangerouslySetInnerHTML={{ __html: lesson.body }} /> : null}
            {data.scorm ? <ScormPlayer lessonId={lesson.id} data={data.scorm} onLessonCompleted={() => revalidator.revalidate()} /> : null}
            {data.quiz ? (
              <QuizPlayer data={data.quiz} returnTo={`/courses/${course.id}/lessons/${lesson.id}`} lessonId={lesson.id} confirm={data.quizConfirm} error={data.quizError} />
            ) : null}
            {lesson.completed ? (
              <p className="badge published" data-testid="lesson-completed">
                {t("learn.lessonCompleted")}
              </p>
            ) : lesson.kind === "scorm" || lesson.kind === "quiz" ? null : (
              <Form method="post">
                <button type="submit" name="intent" value="complete" className="primary" data-testid="complete">
                  {t("learn.markComplete")}
                </button>
              </Form>
            )}
          </>
        )}
        <nav className="lesson-nav">
          {data.previousId ? <Link to={`/courses/${course.id}/lessons/${data.previousId}`}>← {t("learn.previous")}</Link> : <span />}
          {data.nextId ? <Link to={`/courses/${course.id}/lessons/${data.nextId}`}>{t("learn.next")} →</Link> : null}
        </nav>
      </article>
      <aside className="panel episodes-panel">
        <h2>{t("learn.episodes")}</h2>
        <ol className="episodes">
          {data.episodes.map((e) => (
            <li key={e.id} className={e.current ? "current" : e.completed ? "done" : ""}>
              <Link to={`/courses/${course.id}/lessons/${e.id}`}>{e.title}</Link>
              {e.completed ? " ✓" : null}
            </li>
          ))}
        </ol>
      </aside>
      {data.showInstructions ? <Instructions /> : null}
    </div>
  );
}

/**
 * A plain <video controls> that works without JavaScript; with it, ±15 s buttons and a heartbeat every
 * 15 seconds while playing (POST /api/lesson-progresses) that saves the place and the time watched.
 */
function Video({ lessonId, src, mime }: { lessonId: number; src: string | null; mime?: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLVideoElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => {
    setEnhanced(true);
    const video = ref.current;
    if (!video) return;
    let watched = 0;
    let last = video.currentTime;
    const tick = () => {
      const delta = video.currentTime - last;
      if (delta > 0 && delta < 5) watched += delta;
      last = video.currentTime;
    };
    const send = () => {
      if (watched < 1 && video.paused) return;
      void fetch("/api/lesson-progresses", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ lesson_id: lessonId, position_seconds: Math.floor(video.currentTime), watched_seconds: Math.floor(watched) }),
      });
      watched = 0;
    };
    video.addEventListener("timeupdate", tick);
    const timer = window.setInterval(send, 15_000);
    video.addEventListener("pause", send);
    return () => {
      video.removeEventListener("timeupdate", tick);
      video.removeEventListener("pause", send);
      window.clearInterval(timer);
    };
  }, [lessonId]);
  if (!src) return null;
  const skip = (seconds: number) => {
    if (ref.current) ref.current.currentTime = Math.max(0, ref.current.currentTime + seconds);
  };
  void mime;
  return (
    <div className="video" data-testid="video">
      {/* react-player renders a plain <video controls> on the server, so the video plays without JavaScript;
          in the browser it also takes addresses of video services. */}
      <ReactPlayer ref={ref} src={src} controls preload="metadata" width="100%" height="auto" />
      <noscript>
        <a href={src}>{t("learn.videoElsewhere")}</a>
      </noscript>
      {enhanced ? (
        <div className="video-controls">
          <button type="button" onClick={() => skip(-15)} aria-label={t("learn.skipBack")}>
            ⟲ 15
          </button>
          <button type="button" onClick={() => skip(15)} aria-label={t("learn.skipForward")}>
            15 ⟳
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** Shown once per person (spec §7 "player-window marks instructions as shown"); a form, so it works without JS. */
function Instructions() {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  if (fetcher.state !== "idle" || fetcher.data) return null;
  return (
    <div className="modal" role="dialog" aria-modal="true" aria-labelledby="instructions-title" data-testid="instructions">
      <div className="modal-body">
        <h2 id="instructions-title">{t("learn.instructions")}</h2>
        <p>{t("learn.instructionsBody")}</p>
        <fetcher.Form method="post" action="/api/player-window">
          <input type="hidden" name="redirectTo" value={typeof window === "undefined" ? "" : window.location.pathname} />
          <button type="submit" className="primary">
            {t("learn.gotIt")}
          </button>
        </fetcher.Form>
      </div>
    </div>
  );
}
