import { CourseCards } from "~/components/course-cards";
import { EmptyState } from "~/components/empty-state";
import { useTranslation } from "~/utils/translate";
import type { OrganizationHome } from "./home-data";

/** Every course the viewer sees, each with the day it was added; when there is none, what to do about it. */
export function AllCourses({ data }: { data: OrganizationHome }) {
  const { t } = useTranslation();
  return (
    <section className="all-courses" aria-labelledby="all-courses-title">
      <h2 id="all-courses-title">{t("home.allCourses")}</h2>
      {data.courses.length === 0 ? (
        <NoCourses canManage={data.canManage} signedIn={data.signedIn} />
      ) : (
        <CourseCards
          courses={data.courses.map((c) => ({
            ...c,
            meta: t("home.added", { date: c.added }),
          }))}
          testId="all-courses"
        />
      )}
    </section>
  );
}

/** No course to show: a manager is sent to the dashboard, a learner to their profile, a visitor to sign in. */
function NoCourses({ canManage, signedIn }: { canManage: boolean; signedIn: boolean }) {
  const { t } = useTranslation();
  const [body, to, action] = canManage
    ? [t("browse.empty.homeAdmin"), "/dashboard", t("browse.empty.homeAdminAction")]
    : signedIn
      ? [t("browse.empty.home"), "/profile", t("browse.empty.homeAction")]
      : [t("browse.empty.homeGuest"), "/auth/login", t("nav.signIn")];
  return <EmptyState testId="home-empty" title={t("home.empty")} body={body} to={to} action={action} />;
}
