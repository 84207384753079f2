import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { listCategories } from "~/models/category.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Spec §2 /categories. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  return { categories: listCategories(db).map((c) => ({ id: c.id, name: c.name })) };
}

export default function Categories() {
  const { t } = useTranslation();
  const { categories } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("categoriesPage.title")}</h1>
      {categories.length ? (
        <ul className="category-list">
          {categories.map((c) => (
            <li key={c.id}>
              <Link to={`/categories/${c.id}`}>{c.name}</Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty-state">{t("categoriesPage.empty")}</p>
      )}
    </section>
  );
}
