import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { and, asc, eq } from "drizzle-orm";
import { useTranslation } from "react-i18next";
import { courses } from "../../db/tenant";
import { CourseCards } from "~/components/course-cards";
import { getCategory } from "~/models/category.server";
import { richTextToPlain } from "~/utils/sanitize.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Spec §2 /categories/{id}: its published courses. */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const category = getCategory(db, Number(params.id) || -1);
  if (!category) throw new Response("Not Found", { status: 404 });
  const rows = db.select().from(courses).where(and(eq(courses.categoryId, category.id), eq(courses.published, true))).orderBy(asc(courses.position), asc(courses.id)).all();
  return { name: category.name, courses: rows.map((c) => ({ id: c.id, title: c.title, type: c.type, description: richTextToPlain(c.description) })) };
}

export default function Category() {
  const { t } = useTranslation();
  const { name, courses: list } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("categoriesPage.courses", { name })}</h1>
      {list.length ? <CourseCards courses={list} /> : <p className="empty-state">{t("categoriesPage.none")}</p>}
    </section>
  );
}
