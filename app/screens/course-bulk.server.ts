import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { COURSE_BULK_JOB, courseBulkDetail, courseBulkJobOf, courseBulkView, prepareCourseBulk } from "~/models/course-bulk/job.server";
import { courseListCategories, courseListCount, courseListIds, existingCourseIds } from "~/models/course-list.server";
import { categoryOf, courseBulkSchema, courseBulkSelectionSchema } from "~/models/forms/course-bulk";
import { COURSE_LIST, courseListFilters, type CourseListQuery } from "~/models/forms/course-list";
import { getJob } from "~/models/job.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { readForm } from "~/utils/form-data.server";
import { listSearch } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { readBulkSelection } from "./bulk.server";

/**
 * A bulk action on courses from the courses list (issue 50; app/models/course-bulk/), in both areas
 * (/dashboard/organizations/{id}/courses and /admin/organizations/{id}/courses): the list's "Continue" opens
 * `courses/bulk` with the action and which courses (the ticked rows, or every course the list's filters match),
 * which names how many it reaches and asks what the action needs; its form starts a background job, whose page
 * (`courses/bulk/{job}`) shows the progress and then what was done, left as it was, and refused.
 */
const guard = (area: Area) => ({ area, capability: "write:course" as const });
const coursesOf = (m: Managed) => `${m.base}/courses`;

/** The courses list as it was, to go back to. */
const listOf = (m: Managed, query: Pick<CourseListQuery, "q" | "filters">) =>
  `${coursesOf(m)}${listSearch({ ...query, sort: COURSE_LIST.defaultSort, dir: "asc", page: 1, perPage: 25 }, COURSE_LIST)}`;

export function courseBulkLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, guard(area), (m) => {
      const read = readBulkSelection(new URL(request.url).searchParams, courseBulkSelectionSchema, courseListFilters, "courseBulk");
      const { query } = read;
      const back = listOf(m, query);
      if (!read.ok) return { ok: false as const, back, error: read.error };
      const { selection } = read;
      const count =
        selection.scope === "all" ? courseListCount(m.db, m.viewer, query) : existingCourseIds(m.db, m.viewer, read.ticked).length;
      return {
        ok: true as const,
        back,
        ...selection,
        count,
        locale: dateLocaleFor(m.viewer),
        categories: selection.action === "move" ? courseListCategories(m.db) : [],
      };
    });
}

export function courseBulkAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, guard(area), async (m) => {
      const form = await readForm(request, context);
      const submission = parseForm(form, courseBulkSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const { query, invalid } = courseListFilters((name) => form.get(name));
      if (invalid) return json(submission.reply({ formErrors: ["courseBulk.errors.filters"] }), { status: 400 });
      const v = submission.value;
      const ids = v.scope === "all" ? courseListIds(m.db, m.viewer, query) : v.ids;
      const prepared = prepareCourseBulk(
        m.db,
        m.viewer,
        { action: v.bulkAction, params: { categoryId: categoryOf(v.bulkCategory) }, ids },
        "page",
      );
      if (!prepared.ok) {
        if (prepared.status === 403) throw new Response("Forbidden", { status: 403 });
        const refusal = prepared.field ? { fieldErrors: { [prepared.field]: [prepared.message] } } : { formErrors: [prepared.message] };
        return json(submission.reply(refusal), { status: 400 });
      }
      const job = context.platform.jobs.enqueue(m.organization.id, m.db, COURSE_BULK_JOB, prepared.payload);
      return redirectWithFlash(`${coursesOf(m)}/bulk/${job.id}`, "bulk.flash.started");
    });
}

export function courseBulkJobLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, guard(area), (m) => {
      const job = /^\d{1,15}$/.test(params.jobId ?? "") ? courseBulkJobOf(getJob(m.db, Number(params.jobId))) : undefined;
      if (!job) throw new Response("Not Found", { status: 404 });
      return { job: courseBulkView(job), detail: courseBulkDetail(m.db, job), back: coursesOf(m), locale: dateLocaleFor(m.viewer) };
    });
}
