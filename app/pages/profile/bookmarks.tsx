import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { CourseCards } from "~/components/course-cards";
import { EmptyState } from "~/components/empty-state";
import { courseCards } from "~/models/browse.server";
import { listBookmarks } from "~/models/bookmarks.server";
import { requireUser } from "~/kernel/auth.server";
import { richTextToPlain } from "~/utils/sanitize.server";
import { requireOrganization } from "~/utils/tenant.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db, organization } = requireOrganization(context);
  const viewer = await requireUser(request, context);
  const { person } = viewer;
  const cover = (fileId: number | null | undefined) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  const rows = listBookmarks(db, viewer).map(({ course }) => course);
  return { courses: courseCards(db, rows, { learnerId: person.id, cover, plain: richTextToPlain }) };
}

export default function Bookmarks() {
  const { t } = useTranslation();
  const { courses } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("profile.bookmarks")}</h1>
      {courses.length ? (
        <CourseCards courses={courses} testId="bookmarks" headingLevel={2} eager={4} />
      ) : (
        <EmptyState
          testId="bookmarks-empty"
          title={t("profile.noBookmarks")}
          body={t("browse.empty.bookmarks")}
          to="/categories"
          action={t("browse.empty.bookmarksAction")}
        />
      )}
    </section>
  );
}
