import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CourseCards } from "~/components/course-cards";
import { recentCourses } from "~/models/learning.server";
import { requireUser } from "~/utils/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Spec §2 /history: recently watched courses, most recent first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const auth = await requireUser(request, context);
  return { courses: recentCourses(db, auth.person.id).map(({ course }) => ({ id: course.id, title: course.title, type: course.type })) };
}

export default function History() {
  const { t } = useTranslation();
  const { courses } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("history.title")}</h1>
      {courses.length ? <CourseCards courses={courses} testId="history" /> : <p className="empty-state">{t("history.empty")}</p>}
    </section>
  );
}
