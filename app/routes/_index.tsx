import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { CategoryTiles } from "~/components/category-tiles";
import { CourseCards, CourseFacts, CourseRow, ProgressBar } from "~/components/course-cards";
import { EmptyState } from "~/components/empty-state";
import { ProviderImage } from "~/components/provider-image";
import { categoryTiles, courseCards, courseStats } from "~/models/browse.server";
import { carouselCourseRows, listCarousels } from "~/models/carousel.server";
import { listPublishedCourses } from "~/models/course.server";
import { publishedCourse, recentCourses } from "~/models/learning.server";
import { getAuth } from "~/utils/auth.server";
import { formatDate } from "~/utils/i18n";
import { richTextToPlain } from "~/utils/sanitize.server";

const HOME_COURSE_LIMIT = 24;

/**
 * Spec §2 "/" home, streaming-style (issue 18, docs/decisions/024-learner-home.md): the featured course as
 * a hero, "continue watching" for a signed-in learner, each published carousel as a horizontal row, the
 * categories with their covers, and the published courses. Unpublished courses never appear here.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = context;
  if (!organization || !db) return { kind: "platform" as const };
  const auth = await getAuth(request, context);
  const learnerId = auth?.person && auth.role && !auth.session?.twoFactorPending ? auth.person.id : null;
  const cover = (fileId: number | null | undefined) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  // The queries live in the model: a route module importing drizzle or db/tenant would ship them to the browser.
  const featuredRow = organization.featuredCourse ? publishedCourse(db, organization.featuredCourse) : undefined;
  const carouselRows = listCarousels(db, { publishedOnly: true }).map((carousel) => ({
    carousel,
    rows: carouselCourseRows(db, carousel.id, { publishedOnly: true }),
  }));
  const { items } = listPublishedCourses(db, { page: 1, perPage: HOME_COURSE_LIMIT });
  const recent = learnerId ? recentCourses(db, learnerId, 20).map(({ course }) => course) : [];
  // Episodes, durations and progress for every card of the page, counted once.
  const ids = [...(featuredRow ? [featuredRow.id] : []), ...carouselRows.flatMap((c) => c.rows.map((r) => r.id)), ...items.map((c) => c.id), ...recent.map((c) => c.id)];
  const stats = courseStats(db, ids, learnerId);
  const cards = (rows: Parameters<typeof courseCards>[1]) => courseCards(db, rows, { learnerId, cover, plain: richTextToPlain, stats });
  const carousels = carouselRows.map(({ carousel, rows }) => ({ id: carousel.id, title: carousel.title, courses: cards(rows) }));
  const all = cards(items);
  const added = new Map(items.map((c) => [c.id, c.createdAt.toISOString()]));
  return {
    kind: "organization" as const,
    signedIn: learnerId !== null,
    canManage: Boolean(auth?.capabilities.has("write:course")),
    featured: featuredRow ? cards([featuredRow])[0] : null,
    // Started and not finished, most recently watched first.
    continueWatching: cards(recent)
      .filter((c) => (c.progress ?? 0) < 100)
      .slice(0, 12),
    carousels: carousels.filter((c) => c.courses.length > 0),
    categories: categoryTiles(db, cover).filter((c) => c.courses > 0),
    courses: all.map((c) => ({ ...c, createdAt: added.get(c.id)! })),
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
  const featured = data.featured;
  const started = featured?.progress != null && featured.progress < 100;
  return (
    <div className="browse home">
      {featured ? (
        <section className={featured.cover ? "hero with-cover" : "hero"} data-testid="featured" aria-labelledby="featured-title">
          {featured.cover ? (
            <ProviderImage src={featured.cover} bucket="cover" width={1280} sizes="(max-width: 1280px) 100vw, 1280px" priority className="hero-cover" />
          ) : null}
          <div className="hero-text">
            <span className="hero-label">{t("home.featured")}</span>
            <h2 id="featured-title" className="hero-title">
              {featured.title}
            </h2>
            <CourseFacts course={featured} />
            {featured.description ? <p className="hero-description">{featured.description}</p> : null}
            {started ? <ProgressBar percent={featured.progress!} /> : null}
            <div className="hero-actions">
              <Link className="button primary play" to={`/courses/${featured.id}`} data-testid="featured-play">
                <span aria-hidden="true">▶ </span>
                {started ? t("learn.continue") : t("learn.start")}
              </Link>
            </div>
          </div>
        </section>
      ) : null}
      {data.continueWatching.length ? (
        <CourseRow
          id="continue"
          title={t("home.continue")}
          courses={data.continueWatching}
          testId="continue-watching"
          action={<Link to="/history">{t("browse.seeAll")}</Link>}
        />
      ) : data.signedIn && data.courses.length ? (
        <EmptyState
          testId="continue-empty"
          title={t("home.continue")}
          body={t("browse.empty.continue")}
          to={`/courses/${featured?.id ?? data.courses[0].id}`}
          action={t("browse.empty.continueAction")}
          compact
        />
      ) : null}
      {data.carousels.map((carousel, i) => (
        <div key={carousel.id} className="carousel" data-carousel={carousel.title}>
          <CourseRow
            id={`carousel-${carousel.id}`}
            title={<Link to={`/carousels/${carousel.id}`}>{carousel.title}</Link>}
            courses={carousel.courses}
            eager={!featured && i === 0 ? 4 : 0}
          />
        </div>
      ))}
      {data.categories.length ? (
        <section className="row" aria-labelledby="home-categories" data-testid="home-categories">
          <div className="row-head">
            <h2 id="home-categories">{t("browse.categories")}</h2>
            <Link to="/categories">{t("browse.seeAll")}</Link>
          </div>
          <CategoryTiles categories={data.categories} />
        </section>
      ) : null}
      <section className="all-courses">
        <h1>{t("home.title")}</h1>
        {data.courses.length === 0 ? (
          data.canManage ? (
            <EmptyState
              testId="home-empty"
              title={t("home.empty")}
              body={t("browse.empty.homeAdmin")}
              to="/dashboard"
              action={t("browse.empty.homeAdminAction")}
            />
          ) : data.signedIn ? (
            <EmptyState testId="home-empty" title={t("home.empty")} body={t("browse.empty.home")} to="/profile" action={t("browse.empty.homeAction")} />
          ) : (
            <EmptyState testId="home-empty" title={t("home.empty")} body={t("browse.empty.homeGuest")} to="/auth/login" action={t("nav.signIn")} />
          )
        ) : (
          <CourseCards
            courses={data.courses.map((c) => ({
              ...c,
              meta: t("home.added", { date: formatDate(c.createdAt) }),
            }))}
            testId="all-courses"
          />
        )}
      </section>
    </div>
  );
}
