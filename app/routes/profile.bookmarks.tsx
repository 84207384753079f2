import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CourseCards } from "~/components/course-cards";
import { listBookmarks } from "~/models/learning.server";
import { requireUser } from "~/utils/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const { person } = await requireUser(request, context);
  return { courses: listBookmarks(db, person.id).map(({ course }) => ({ id: course.id, title: course.title, type: course.type })) };
}

export default function Bookmarks() {
  const { t } = useTranslation();
  const { courses } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("profile.bookmarks")}</h1>
      {courses.length ? <CourseCards courses={courses} testId="bookmarks" /> : <p className="empty-state">{t("profile.noBookmarks")}</p>}
    </section>
  );
}
