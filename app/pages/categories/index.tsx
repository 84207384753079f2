import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { CategoryTiles } from "~/components/category-tiles";
import { EmptyState } from "~/components/empty-state";
import { categoryTiles } from "~/models/browse.server";
import { requireOrganization } from "~/utils/tenant.server";

/** docs/product.md §2 /categories: every category as a tile with its cover and number of published courses. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { db, organization } = requireOrganization(context);
  const cover = (fileId: number | null | undefined) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  return { categories: categoryTiles(db, context.viewer, cover) };
}

export default function Categories() {
  const { t } = useTranslation();
  const { categories } = useLoaderData<typeof loader>();
  return (
    <section className="browse">
      <div className="page-head">
        <h1>{t("categoriesPage.title")}</h1>
        <Link to="/carousels">{t("carouselsPage.title")}</Link>
      </div>
      {categories.length ? (
        <CategoryTiles categories={categories} eager={8} />
      ) : (
        <EmptyState
          testId="categories-empty"
          title={t("categoriesPage.empty")}
          body={t("browse.empty.categories")}
          to="/"
          action={t("browse.empty.backHome")}
        />
      )}
    </section>
  );
}
