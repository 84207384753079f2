import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { CourseCards } from "~/components/course-cards";
import { EmptyState } from "~/components/empty-state";
import { PathCards } from "~/components/paths/path-cards";
import { ProviderImage } from "~/components/provider-image";
import { categoryCourses, courseCards } from "~/models/browse.server";
import { getCategory } from "~/models/category.server";
import { categoryPaths } from "~/models/paths/learner.server";
import { learnerContext } from "~/kernel/learner.server";
import { richTextToPlain } from "~/utils/sanitize.server";
import { requireOrganization } from "~/utils/tenant.server";

/** docs/product.md §2 /categories/{id}: its learning paths and published courses, under the category's cover. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { db, organization } = requireOrganization(context);
  const category = getCategory(db, Number(params.id) || -1);
  if (!category) throw new Response("Not Found", { status: 404 });
  const { viewer, person } = learnerContext(request, context);
  const cover = (fileId: number | null | undefined) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  return {
    name: category.name,
    cover: cover(category.coverFileId),
    // Learning paths of the category (issue 49), above its courses.
    paths: categoryPaths(db, viewer, category.id).map((p) => ({ ...p, cover: cover(p.coverFileId) })),
    courses: courseCards(db, categoryCourses(db, viewer, category.id), {
      learnerId: person?.id ?? null,
      cover,
      plain: richTextToPlain,
    }),
  };
}

export default function Category() {
  const { t } = useTranslation();
  const { name, cover, courses: list, paths } = useLoaderData<typeof loader>();
  return (
    <section className="browse">
      <div>
        <p className="breadcrumb">
          <Link to="/categories">← {t("categoriesPage.title")}</Link>
        </p>
        <header className={cover ? "banner with-cover" : "banner"} data-testid="category-banner">
          {cover ? (
            <ProviderImage
              src={cover}
              bucket="cover"
              width={1280}
              sizes="(max-width: 1280px) 100vw, 1280px"
              priority
              className="banner-cover"
            />
          ) : null}
          <div className="banner-text">
            <h1>{t("categoriesPage.courses", { name })}</h1>
            <p>{t("browse.courseCount", { count: list.length })}</p>
          </div>
        </header>
        {paths.length ? (
          <section className="row" aria-labelledby="category-paths">
            <div className="row-head">
              <h2 id="category-paths">{t("paths.title")}</h2>
            </div>
            <PathCards paths={paths} labelledBy="category-paths" testId="category-paths" />
          </section>
        ) : null}
        {list.length ? (
          <CourseCards courses={list} testId="category-courses" headingLevel={2} eager={4} />
        ) : (
          <EmptyState
            testId="category-empty"
            title={t("categoriesPage.none")}
            body={t("browse.empty.category")}
            to="/categories"
            action={t("browse.empty.categoryAction")}
          />
        )}
      </div>
    </section>
  );
}
