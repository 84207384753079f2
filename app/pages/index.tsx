import { useLoaderData } from "@remix-run/react";
import { ListLink } from "~/components/list-link";
import { useTranslation } from "~/utils/translate";
import { StateBadge } from "~/components/assignment-state";
import { CategoryTiles } from "~/components/category-tiles";
import { CourseCards, CourseFacts, CourseRow, ProgressBar } from "~/components/course-cards";
import { EmptyState } from "~/components/empty-state";
import { ProviderImage } from "~/components/provider-image";
import type { loader } from "~/screens/home.server";

// The loader lives in a module of its own, so that none of what it imports reaches the browser's code,
// not even as an empty stand-in module (docs/decisions/014-speed.md, "Client JavaScript").
export { loader } from "~/screens/home.server";

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
      {/* The page's heading comes first (headings in order); on screen, the hero and the rows say it. */}
      <h1 className="visually-hidden">{t("home.title")}</h1>
      {data.dueSoon.length ? <DueSoon items={data.dueSoon} /> : null}
      {featured ? (
        <section className={featured.cover ? "hero with-cover" : "hero"} data-testid="featured" aria-labelledby="featured-title">
          {featured.cover ? (
            <ProviderImage
              src={featured.cover}
              bucket="cover"
              width={1280}
              sizes="(max-width: 1280px) 100vw, 1280px"
              priority
              className="hero-cover"
            />
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
              <ListLink className="button primary play" to={`/courses/${featured.id}`} data-testid="featured-play">
                <span aria-hidden="true">▶ </span>
                {started ? t("learn.continue") : t("learn.start")}
              </ListLink>
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
          action={<ListLink to="/history">{t("browse.seeAll")}</ListLink>}
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
            title={<ListLink to={`/carousels/${carousel.id}`}>{carousel.title}</ListLink>}
            courses={carousel.courses}
            eager={!featured && i === 0 ? 4 : 0}
          />
        </div>
      ))}
      {data.categories.length ? (
        <section className="row" aria-labelledby="home-categories" data-testid="home-categories">
          <div className="row-head">
            <h2 id="home-categories">{t("browse.categories")}</h2>
            <ListLink to="/categories">{t("browse.seeAll")}</ListLink>
          </div>
          <CategoryTiles categories={data.categories} />
        </section>
      ) : null}
      <section className="all-courses" aria-labelledby="all-courses-title">
        <h2 id="all-courses-title">{t("home.allCourses")}</h2>
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
            <EmptyState
              testId="home-empty"
              title={t("home.empty")}
              body={t("browse.empty.home")}
              to="/profile"
              action={t("browse.empty.homeAction")}
            />
          ) : (
            <EmptyState
              testId="home-empty"
              title={t("home.empty")}
              body={t("browse.empty.homeGuest")}
              to="/auth/login"
              action={t("nav.signIn")}
            />
          )
        ) : (
          <CourseCards
            courses={data.courses.map((c) => ({
              ...c,
              meta: t("home.added", { date: c.added }),
            }))}
            testId="all-courses"
          />
        )}
      </section>
    </div>
  );
}

type DueItem = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { kind: "organization" }>["dueSoon"][number];

/**
 * "Due soon" (issue 34): the courses assigned to the learner and not done yet, by due day (overdue first),
 * then those done lately; each with its date and state in words, overdue standing out. Plain markup of its
 * own rather than course cards, so the kept cards (docs/decisions/030-kept-markup.md) stay as they are.
 */
function DueSoon({ items }: { items: DueItem[] }) {
  const { t } = useTranslation();
  return (
    <section className="row due-soon" aria-labelledby="due-soon-title" data-testid="due-soon">
      <div className="row-head">
        <h2 id="due-soon-title">{t("assigning.learner.title")}</h2>
      </div>
      {/* A row like the others (scrolls sideways when long); focusable so the keyboard can scroll it (axe: scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus */}
      <ul className="row-track due-list" tabIndex={0} aria-labelledby="due-soon-title">
        {items.map((item) => (
          <li key={item.id} className={`due-item due-${item.state.replace("_", "-")}`} data-course={item.title} data-state={item.state}>
            <ListLink to={`/courses/${item.id}`} className="due-link">
              {item.title}
            </ListLink>
            <p className="due-date">
              <StateBadge state={item.state} />
              <span>
                {item.done
                  ? t("assigning.learner.dueDone", { date: item.due, done: item.done })
                  : t("assigning.learner.dueOn", { date: item.due })}
              </span>
            </p>
            {item.locked ? <p className="due-locked">{t("access.prerequisite")}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
