import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { CourseCards } from "~/components/course-cards";
import { EmptyState } from "~/components/empty-state";
import { courseCards } from "~/models/browse.server";
import { recentCourses } from "~/models/learning.server";
import { requireUser } from "~/kernel/auth.server";
import { richTextToPlain } from "~/utils/sanitize.server";
import { requireOrganization } from "~/utils/tenant.server";

/** docs/product.md §2 /history: recently watched courses, most recent first. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db, organization } = requireOrganization(context);
  const auth = await requireUser(request, context);
  const cover = (fileId: number | null | undefined) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  const rows = recentCourses(db, auth).map(({ course }) => course);
  return { courses: courseCards(db, rows, { learnerId: auth.person.id, cover, plain: richTextToPlain }) };
}

export default function History() {
  const { t } = useTranslation();
  const { courses } = useLoaderData<typeof loader>();
  return (
    <section className="browse">
      <h1>{t("history.title")}</h1>
      {courses.length ? (
        <CourseCards courses={courses} testId="history" headingLevel={2} eager={4} />
      ) : (
        <EmptyState
          testId="history-empty"
          title={t("history.empty")}
          body={t("browse.empty.history")}
          to="/categories"
          action={t("browse.empty.historyAction")}
        />
      )}
    </section>
  );
}
