import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { inArray } from "drizzle-orm";
import { useTranslation } from "react-i18next";
import { courses } from "../../db/tenant";
import { CourseCards } from "~/components/course-cards";
import { carouselCourseIds, getCarousel, listCarousels } from "~/models/carousel.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Spec §2 /carousels/{id?}: every published carousel, or one, with its published courses in order. */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const list = params.id ? [getCarousel(db, Number(params.id) || -1)].filter((c) => c?.published) : listCarousels(db, { publishedOnly: true });
  if (params.id && list.length === 0) throw new Response("Not Found", { status: 404 });
  return {
    carousels: list.map((carousel) => {
      const ids = carouselCourseIds(db, carousel!.id, { publishedOnly: true });
      const rows = ids.length ? db.select().from(courses).where(inArray(courses.id, ids)).all() : [];
      const byId = new Map(rows.map((c) => [c.id, c]));
      return { id: carousel!.id, title: carousel!.title, courses: ids.map((id) => byId.get(id)!).map((c) => ({ id: c.id, title: c.title, type: c.type })) };
    }),
  };
}

export default function Carousels() {
  const { t } = useTranslation();
  const { carousels } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{carousels.length === 1 ? carousels[0].title : t("carouselsPage.title")}</h1>
      {carousels.length === 0 ? <p className="empty-state">{t("carouselsPage.empty")}</p> : null}
      {carousels.map((c) => (
        <section key={c.id} className="carousel" data-carousel={c.title}>
          {carousels.length > 1 ? <h2>{c.title}</h2> : null}
          <CourseCards courses={c.courses} />
        </section>
      ))}
    </section>
  );
}
