import { ListLink } from "~/components/list-link";
import { CourseRow } from "~/components/course-cards";
import { EmptyState } from "~/components/empty-state";
import { useTranslation } from "~/utils/translate";
import type { OrganizationHome } from "./home-data";

/**
 * "Continue watching": the courses the learner started and has not finished; for a signed-in learner who
 * has started none, a word and a way to start (the featured course, or the first one); nothing for a visitor.
 */
export function ContinueWatching({ data }: { data: OrganizationHome }) {
  const { t } = useTranslation();
  if (data.continueWatching.length) {
    return (
      <CourseRow
        id="continue"
        title={t("home.continue")}
        courses={data.continueWatching}
        testId="continue-watching"
        action={<ListLink to="/history">{t("browse.seeAll")}</ListLink>}
      />
    );
  }
  if (!data.signedIn || !data.courses.length) return null;
  return (
    <EmptyState
      testId="continue-empty"
      title={t("home.continue")}
      body={t("browse.empty.continue")}
      to={`/courses/${data.featured?.id ?? data.courses[0].id}`}
      action={t("browse.empty.continueAction")}
      compact
    />
  );
}
