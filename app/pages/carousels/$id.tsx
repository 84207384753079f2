import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { CourseCards, CourseRow } from "~/components/course-cards";
import { EmptyState } from "~/components/empty-state";
import { ProviderImage } from "~/components/provider-image";
import { courseCards } from "~/models/browse.server";
import { carouselCourseRows, findCarousel, listCarousels } from "~/models/carousel.server";
import { learnerContext } from "~/kernel/learner.server";
import { richTextToPlain } from "~/utils/sanitize.server";

/**
 * docs/product.md §2 /carousels/{id?}: every published carousel as a row under its cover, or one carousel's
 * published courses in order.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, organization, viewer, person } = learnerContext(request, context);
  const list = params.id ? [findCarousel(db, viewer, Number(params.id) || -1)].filter(Boolean) : listCarousels(db, viewer);
  if (params.id && list.length === 0) throw new Response("Not Found", { status: 404 });
  const cover = (fileId: number | null | undefined) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  return {
    single: Boolean(params.id),
    carousels: list.map((carousel) => ({
      id: carousel!.id,
      title: carousel!.title,
      cover: cover(carousel!.coverFileId),
      courses: courseCards(db, carouselCourseRows(db, viewer, carousel!.id), {
        learnerId: person?.id ?? null,
        cover,
        plain: richTextToPlain,
      }),
    })),
  };
}

export default function Carousels() {
  const { t } = useTranslation();
  const { single, carousels } = useLoaderData<typeof loader>();
  if (single) {
    const c = carousels[0];
    return (
      <section className="browse carousel" data-carousel={c.title}>
        <div>
          <p className="breadcrumb">
            <Link to="/carousels">← {t("carouselsPage.title")}</Link>
          </p>
          <header className={c.cover ? "banner with-cover" : "banner"} data-testid="carousel-banner">
            {c.cover ? (
              <ProviderImage
                src={c.cover}
                bucket="cover"
                width={1280}
                sizes="(max-width: 1280px) 100vw, 1280px"
                priority
                className="banner-cover"
              />
            ) : null}
            <div className="banner-text">
              <h1>{c.title}</h1>
              <p>{t("browse.courseCount", { count: c.courses.length })}</p>
            </div>
          </header>
          {c.courses.length ? (
            <CourseCards courses={c.courses} headingLevel={2} eager={4} />
          ) : (
            <EmptyState title={t("categoriesPage.none")} body={t("browse.empty.category")} to="/" action={t("browse.empty.backHome")} />
          )}
        </div>
      </section>
    );
  }
  return (
    <section className="browse">
      <h1>{t("carouselsPage.title")}</h1>
      {carousels.length === 0 ? (
        <EmptyState
          testId="carousels-empty"
          title={t("carouselsPage.empty")}
          body={t("browse.empty.carousels")}
          to="/"
          action={t("browse.empty.backHome")}
        />
      ) : null}
      {carousels.map((c) => (
        <div key={c.id} className="carousel carousel-block" data-carousel={c.title}>
          <CourseRow
            cover={c.cover}
            id={`carousel-${c.id}`}
            title={<Link to={`/carousels/${c.id}`}>{c.title}</Link>}
            courses={c.courses}
            action={<Link to={`/carousels/${c.id}`}>{t("browse.seeAll")}</Link>}
          />
        </div>
      ))}
    </section>
  );
}
