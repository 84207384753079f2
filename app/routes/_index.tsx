import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CourseCards } from "~/components/course-cards";
import { ProviderImage } from "~/components/provider-image";
import { carouselCourseRows, listCarousels } from "~/models/carousel.server";
import { listPublishedCourses } from "~/models/course.server";
import { publishedCourse, recentCourses } from "~/models/learning.server";
import { getAuth } from "~/utils/auth.server";
import { formatDate } from "~/utils/i18n";
import { richTextToPlain } from "~/utils/sanitize.server";

const HOME_COURSE_LIMIT = 24;

/**
 * Spec §2 "/" home: the featured course, "continue watching" for a signed-in learner, the published
 * carousels, and the published courses. Unpublished courses never appear here.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = context;
  if (!organization || !db) return { kind: "platform" as const };
  const auth = await getAuth(request, context);
  const learnerId = auth?.person && auth.role && !auth.session?.twoFactorPending ? auth.person.id : null;
  const cover = (fileId: number | null | undefined) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  const card = (c: { id: number; title: string; type: string; description?: string; coverFileId?: number | null }) => ({
    id: c.id,
    title: c.title,
    type: c.type,
    description: c.description ? richTextToPlain(c.description) : "",
    cover: cover(c.coverFileId),
  });
  const featured = organization.featuredCourse ? publishedCourse(db, organization.featuredCourse) : undefined;
  // The queries live in the model: a route module importing drizzle or db/tenant would ship them to the browser.
  const carousels = listCarousels(db, { publishedOnly: true }).map((carousel) => ({
    id: carousel.id,
    title: carousel.title,
    courses: carouselCourseRows(db, carousel.id, { publishedOnly: true }).map(card),
  }));
  const { items } = listPublishedCourses(db, { page: 1, perPage: HOME_COURSE_LIMIT });
  return {
    kind: "organization" as const,
    featured: featured ? card(featured) : null,
    continueWatching: learnerId ? recentCourses(db, learnerId, 6).map(({ course }) => card(course)) : [],
    carousels: carousels.filter((c) => c.courses.length > 0),
    courses: items.map((c) => ({ ...c, description: richTextToPlain(c.description), cover: cover(c.coverFileId), createdAt: c.createdAt.toISOString() })),
  };
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  if (data.kind === "platform") {
    return (
      <section className="platform-intro">
        <h1>{t("platform.title")}</h1>
        <p>{t("platform.intro")}</p>
      </section>
    );
  }
  return (
    <>
      {data.featured ? (
        <section className={data.featured.cover ? "featured panel with-cover" : "featured panel"} data-testid="featured">
          {data.featured.cover ? (
            <ProviderImage src={data.featured.cover} bucket="cover" width={960} sizes="(max-width: 1000px) 100vw, 960px" priority className="featured-cover" />
          ) : null}
          <div className="featured-text">
            <span className="course-type">{t("home.featured")}</span>
            <h2>
              <Link to={`/courses/${data.featured.id}`}>{data.featured.title}</Link>
            </h2>
            <p className="course-description">{data.featured.description}</p>
            <Link className="button primary" to={`/courses/${data.featured.id}`}>
              {t("learn.start")}
            </Link>
          </div>
        </section>
      ) : null}
      {data.continueWatching.length ? (
        <section>
          <h2>{t("home.continue")}</h2>
          <CourseCards courses={data.continueWatching} testId="continue-watching" />
        </section>
      ) : null}
      {data.carousels.map((carousel) => (
        <section key={carousel.id} className="carousel" data-carousel={carousel.title}>
          <h2>
            <Link to={`/carousels/${carousel.id}`}>{carousel.title}</Link>
          </h2>
          <CourseCards courses={carousel.courses} />
        </section>
      ))}
      <section>
        <h1>{t("home.title")}</h1>
        {data.courses.length === 0 ? (
          <p className="empty-state">{t("home.empty")}</p>
        ) : (
          <ul className="course-grid">
            {data.courses.map((course) => (
              <li key={course.id} className="course-card" data-course-id={course.id}>
                <span className="course-type">{t(`courseType.${course.type}`)}</span>
                <h2 className="course-title">
                  <Link to={`/courses/${course.id}`}>{course.title}</Link>
                </h2>
                <p className="course-description">{course.description}</p>
                <p className="course-meta">{t("home.added", { date: formatDate(course.createdAt) })}</p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
