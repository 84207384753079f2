import { useLoaderData } from "@remix-run/react";
import { ListLink } from "~/components/list-link";
import { useTranslation } from "~/utils/translate";
import { CategoryTiles } from "~/components/category-tiles";
import { CourseRow } from "~/components/course-cards";
import { AllCourses } from "~/components/home/all-courses";
import { ContinueWatching } from "~/components/home/continue-watching";
import { DueSoon } from "~/components/home/due-soon";
import { FeaturedHero } from "~/components/home/featured-hero";
import { PathCards } from "~/components/paths/path-cards";
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
  return (
    <div className="browse home">
      {/* The page's heading comes first (headings in order); on screen, the hero and the rows say it. */}
      <h1 className="visually-hidden">{t("home.title")}</h1>
      {data.dueSoon.length ? <DueSoon items={data.dueSoon} /> : null}
      {data.featured ? <FeaturedHero featured={data.featured} /> : null}
      {data.paths.length ? (
        <section className="row" aria-labelledby="home-paths" data-testid="home-paths">
          <div className="row-head">
            <h2 id="home-paths">{t("paths.yours")}</h2>
            <ListLink to="/paths">{t("browse.seeAll")}</ListLink>
          </div>
          <PathCards paths={data.paths} row labelledBy="home-paths" testId="home-path-cards" />
        </section>
      ) : null}
      <ContinueWatching data={data} />
      {data.carousels.map((carousel, i) => (
        <div key={carousel.id} className="carousel" data-carousel={carousel.title}>
          <CourseRow
            id={`carousel-${carousel.id}`}
            title={<ListLink to={`/carousels/${carousel.id}`}>{carousel.title}</ListLink>}
            courses={carousel.courses}
            eager={!data.featured && i === 0 ? 4 : 0}
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
      <AllCourses data={data} />
    </div>
  );
}
