import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { AccessMessage } from "~/components/access-message";
import { CourseCertificate } from "~/components/course-certificate";
import { courseCertificateSummary } from "~/models/certificate.server";
import { courseLinks } from "~/models/course.server";
import { getFile } from "~/models/file.server";
import {
  completedLessonIds,
  courseAccess,
  courseLessons,
  courseProgress,
  courseRating,
  isBookmarked,
  lessonAccess,
  publishedCourse,
  rateCourse,
  setBookmark,
} from "~/models/learning.server";
import { listMaterials } from "~/models/material.server";
import { learnerContext } from "~/utils/learner.server";
import { sanitizeRichText } from "~/utils/sanitize.server";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...matches.flatMap((m) => m.meta ?? []).filter((m) => !("title" in m)),
  { title: data?.course.title ?? "" },
];

function courseId(params: LoaderFunctionArgs["params"]) {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response("Not Found", { status: 404 });
  return id;
}

/** Spec §2 /courses/{id}: information, episodes, materials, links, rating, bookmark and access state. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, learner, organization } = await learnerContext(request, context);
  const course = publishedCourse(db, courseId(params), { includeDrafts: learner?.canPreview });
  if (!course) throw new Response("Not Found", { status: 404 });
  const access = courseAccess(db, course, learner);
  const lessons = courseLessons(db, course.id);
  const done = learner ? completedLessonIds(db, learner.id, course.id) : new Set<number>();
  const sign = (fileId: number) => {
    const file = getFile(db, fileId);
    return file ? context.platform.signFileUrl(organization.id, file, context.platform.config.DOWNLOAD_TTL_SECONDS).url : null;
  };
  const next = lessons.find((l) => !done.has(l.id)) ?? lessons[0];
  return {
    course: {
      id: course.id,
      title: course.title,
      type: course.type,
      // Sanitised when saved, and again here: rows written before sanitising existed are made safe too.
      description: sanitizeRichText(course.description),
      externalUrl: access.allowed ? course.externalUrl : null,
      download: access.allowed && course.fileId ? sign(course.fileId) : null,
      published: course.published,
    },
    access: access.allowed ? null : access.reason,
    signedIn: Boolean(learner),
    loginUrl: `/auth/login?${new URLSearchParams({ redirectTo: `/courses/${course.id}` })}`,
    lessons: lessons.map((l) => ({
      id: l.id,
      title: l.title,
      kind: l.kind,
      completed: done.has(l.id),
      locked: !lessonAccess(db, course, l, learner).allowed,
    })),
    nextLessonId: next?.id ?? null,
    started: done.size > 0,
    progress: learner ? courseProgress(db, learner.id, course.id) : null,
    materials: access.allowed ? listMaterials(db, course.id).map((m) => ({ id: m.id, title: m.title, url: sign(m.fileId) })) : [],
    links: access.allowed ? courseLinks(db, course.id).map((l) => ({ id: l.id, title: l.title, url: l.url })) : [],
    rating: courseRating(db, course.id, learner?.id),
    bookmarked: learner ? isBookmarked(db, learner.id, course.id) : false,
    certificate: learner ? courseCertificateSummary(db, learner.id, course.id) : null,
  };
}

const actionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("bookmark") }),
  z.object({ intent: z.literal("unbookmark") }),
  z.object({ intent: z.literal("rate"), stars: z.coerce.number().int().min(1).max(5) }),
]);

/** Bookmark and rate (signed-in learners; rating also needs access to the course). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { db, learner } = await learnerContext(request, context);
  const course = publishedCourse(db, courseId(params), { includeDrafts: learner?.canPreview });
  if (!course) throw new Response("Not Found", { status: 404 });
  if (!learner) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: `/courses/${course.id}` })}`);
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return json({ error: "validation.invalid" }, { status: 400 });
  if (parsed.data.intent === "rate") {
    if (!courseAccess(db, course, learner).allowed) throw new Response("Forbidden", { status: 403 });
    rateCourse(db, learner.id, course.id, parsed.data.stars);
  } else {
    setBookmark(db, learner.id, course.id, parsed.data.intent === "bookmark");
  }
  return redirect(`/courses/${course.id}`);
}

export default function CoursePage() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const { course } = data;
  return (
    <article className="course-page">
      <header className="course-header">
        <span className="course-type">{t(`courseType.${course.type}`)}</span>
        <h1>{course.title}</h1>
        {data.progress && data.progress.lessons > 0 ? <p className="progress-line">{t("learn.progress", { percent: data.progress.percent })}</p> : null}
        {data.progress?.completed ? <p className="badge published">{t("learn.courseCompleted")}</p> : null}
        <div className="course-actions">
          {data.access ? (
            <AccessMessage reason={data.access} loginUrl={data.loginUrl} />
          ) : course.type === "download" && course.download ? (
            <a href={course.download} className="button primary" data-testid="download">
              {t("learn.download")}
            </a>
          ) : course.type === "external_link" && course.externalUrl ? (
            <a href={course.externalUrl} className="button primary" rel="noopener noreferrer" target="_blank" data-testid="external">
              {t("learn.openLink")}
            </a>
          ) : data.nextLessonId ? (
            <Link to={`/courses/${course.id}/lessons/${data.nextLessonId}`} className="button primary" data-testid="start">
              {data.started ? t("learn.continue") : t("learn.start")}
            </Link>
          ) : null}
          {data.signedIn ? (
            <Form method="post" className="inline-form">
              <button type="submit" name="intent" value={data.bookmarked ? "unbookmark" : "bookmark"} aria-pressed={data.bookmarked} data-testid="bookmark">
                {data.bookmarked ? t("learn.unbookmark") : t("learn.bookmark")}
              </button>
            </Form>
          ) : null}
        </div>
      </header>
      <CourseCertificate certificate={data.certificate} />
      <section className="panel">
        <h2>{t("learn.info")}</h2>
        {/* Stored descriptions are sanitised with an allowlist when saved (app/utils/sanitize.server.ts). */}
        <div className="rich-text" dangerouslySetInnerHTML={{ __html: course.description }} />
      </section>
      {data.lessons.length ? (
        <section className="panel">
          <h2>{t("learn.episodes")}</h2>
          <ol className="episodes" data-testid="episodes">
            {data.lessons.map((l) => (
              <li key={l.id} data-lesson={l.title} className={l.completed ? "done" : l.locked ? "locked" : ""}>
                {l.locked || data.access ? <span>{l.title}</span> : <Link to={`/courses/${course.id}/lessons/${l.id}`}>{l.title}</Link>}{" "}
                <span className="badge">{t(`courses.kinds.${l.kind}`)}</span>
                {l.completed ? <span className="badge published">{t("learn.completed")}</span> : null}
                {l.locked && !data.access ? <span className="badge">{t("learn.locked")}</span> : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {data.materials.length ? (
        <section className="panel">
          <h2>{t("learn.materials")}</h2>
          <ul className="plain-list">
            {data.materials.map((m) => (
              <li key={m.id}>{m.url ? <a href={m.url}>{m.title}</a> : m.title}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {data.links.length ? (
        <section className="panel">
          <h2>{t("learn.links")}</h2>
          <ul className="plain-list">
            {data.links.map((l) => (
              <li key={l.id}>
                <a href={l.url} rel="noopener noreferrer nofollow" target="_blank">
                  {l.title}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="panel" data-testid="rating">
        <h2>{t("learn.rating")}</h2>
        <p>{data.rating.average ? t("learn.average", { average: data.rating.average, count: data.rating.count }) : t("learn.noRatings")}</p>
        {data.signedIn && !data.access ? (
          <Form method="post" className="stars">
            <input type="hidden" name="intent" value="rate" />
            {[1, 2, 3, 4, 5].map((n) => (
              <button key={n} type="submit" name="stars" value={n} aria-pressed={data.rating.mine === n} aria-label={t("learn.stars", { count: n })} data-testid={`rate-${n}`} className={data.rating.mine && n <= data.rating.mine ? "star on" : "star"}>
                ★
              </button>
            ))}
          </Form>
        ) : null}
      </section>
    </article>
  );
}
