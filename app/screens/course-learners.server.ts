import type { LoaderFunctionArgs } from "@remix-run/node";
import { manageableGroupIds } from "~/access/rules";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";
import { courseLearnerList } from "~/models/course-learner-list.server";
import { getCourse } from "~/models/course.server";
import { COURSE_LEARNER_LIST } from "~/models/forms/course-learner-list";
import { userListGroups } from "~/models/user-list.server";
import { formatDate } from "~/utils/dates";
import { isWholeList, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";

/**
 * A course's learners (issue 50; `courses/{id}/learners` in the organization's screens): everyone with progress in
 * the course, a completion of it or an open assignment of it, as a list (app/models/course-learner-list.server.ts)
 * searched, filtered, sorted and paged from its address. The component is app/screens/course-learners.tsx.
 */
export function courseLearnersLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "read:user" }, (m) => {
      const course = /^\d{1,15}$/.test(params.courseId ?? "") ? getCourse(m.db, Number(params.courseId)) : undefined;
      if (!course) throw new Response("Not Found", { status: 404 });
      const { query, errors } = parseListQuery(new URL(request.url), COURSE_LEARNER_LIST);
      const list = courseLearnerList(m.db, m.viewer, course.id, query);
      const locale = dateLocaleFor(m.viewer);
      const reach = manageableGroupIds(m.viewer);
      return {
        base: `${m.base}/courses/${course.id}/learners`,
        back: `${m.base}/courses/${course.id}`,
        people: `${m.base}/users`,
        title: course.title,
        query: { ...query, page: list.page },
        errors,
        page: { page: list.page, pages: list.pages, total: list.total, perPage: list.perPage },
        filtered: !isWholeList(query, COURSE_LEARNER_LIST),
        locale,
        lessonTotal: list.lessonTotal,
        groups: userListGroups(m.db).filter((g) => reach === null || reach.includes(g.id)),
        learners: list.rows.map((r) => ({
          id: r.id,
          name: [r.firstName, r.lastName].filter(Boolean).join(" ") || r.email,
          email: r.email,
          percent: r.percent,
          state: r.state,
          assigned: r.assigned,
          lastActivity: r.lastActivity ? formatDate(r.lastActivity, { locale }) : null,
          completedOn: r.completedAt ? formatDate(r.completedAt, { locale }) : null,
        })),
      };
    });
}
