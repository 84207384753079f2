import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { manageableGroupIds } from "~/access/rules";
import { withManagedOrganization } from "~/kernel/manage.server";
import { listVisibleCourses } from "~/models/course.server";
import { peopleBulkSchema, peopleBulkSelectionSchema } from "~/models/forms/people-bulk";
import { USER_LIST, userListFilters, type UserListQuery } from "~/models/forms/user-list";
import { listGroups } from "~/models/group.server";
import { assignablePaths } from "~/models/paths/assignments.server";
import { getJob } from "~/models/job.server";
import { PEOPLE_BULK_JOB, peopleBulkDetail, peopleBulkJobOf, peopleBulkView, preparePeopleBulk } from "~/models/people-bulk/job.server";
import { existingUserIds, userListCount, userListIds } from "~/models/user-list.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { readForm } from "~/utils/form-data.server";
import { listSearch } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";
import { readBulkSelection } from "./bulk.server";

/**
 * A bulk action on people from /dashboard/users (issue 50; app/models/people-bulk/): the list's "Continue" opens
 * /dashboard/users/bulk with the action and whom (the ticked rows, or every person the list's filters match),
 * which names how many people it reaches and asks what the action needs; its form starts a background job, whose
 * page (/dashboard/users/bulk/{job}) shows the progress and then what was done, left as it was, and refused.
 * "Export" starts no job: its confirmation links to `GET /api/users/export` with the same people (the ticked ids, or
 * the list's search and filters), which streams them as CSV.
 */
const area = { area: "dashboard" as const, capability: "write:user" as const };
export const PEOPLE = "/dashboard/users";

/** The CSV of the chosen people: the ticked ids, or the list's search and filters (as the /api call reads them). */
function exportUrl(scope: "selected" | "all", ids: number[], query: Pick<UserListQuery, "q" | "filters">) {
  const search = new URLSearchParams();
  if (scope === "all") {
    if (query.q) search.set("q", query.q);
    for (const [name, value] of Object.entries(query.filters)) if (value) search.set(name, String(value));
  } else search.set("ids", ids.join(","));
  const text = search.toString();
  return `/api/users/export${text ? `?${text}` : ""}`;
}

/** The people list as it was, to go back to. */
const listOf = (query: Pick<UserListQuery, "q" | "filters">) =>
  `${PEOPLE}${listSearch({ ...query, sort: USER_LIST.defaultSort, dir: "asc", page: 1, perPage: 25 }, USER_LIST)}`;

export function peopleBulkLoader({ request, context, params }: LoaderFunctionArgs) {
  return withManagedOrganization(request, context, params, area, (m) => {
    const read = readBulkSelection(new URL(request.url).searchParams, peopleBulkSelectionSchema, userListFilters, "bulk");
    const { query } = read;
    const back = listOf(query);
    if (!read.ok) return { ok: false as const, back, error: read.error };
    const { selection } = read;
    const count = selection.scope === "all" ? userListCount(m.db, query) : existingUserIds(m.db, read.ticked).length;
    return {
      ok: true as const,
      back,
      ...selection,
      count,
      locale: dateLocaleFor(m.viewer),
      exportUrl: selection.action === "export" ? exportUrl(selection.scope, read.ticked, query) : null,
      groups: listGroups(m.db, m.viewer).map((g) => ({ id: g.id, name: g.name })),
      paths:
        selection.action === "assign_path"
          ? assignablePaths(m.db, m.viewer).map((p) => ({ id: p.id, title: p.title, draft: !p.published }))
          : [],
      courses:
        selection.action === "assign_course"
          ? listVisibleCourses(m.db, m.viewer, { page: 1, perPage: 500 }).items.map((c) => ({
              id: c.id,
              title: c.title,
              draft: !c.published,
            }))
          : [],
    };
  });
}

export function peopleBulkAction({ request, context, params }: ActionFunctionArgs) {
  return withManagedOrganization(request, context, params, area, async (m) => {
    const form = await readForm(request, context);
    const submission = parseForm(form, peopleBulkSchema);
    if (submission.status !== "success") return json(submission.reply(), { status: 400 });
    const { query, invalid } = userListFilters((name) => form.get(name));
    if (invalid) return json(submission.reply({ formErrors: ["bulk.errors.filters"] }), { status: 400 });
    const v = submission.value;
    const ids = v.scope === "all" ? userListIds(m.db, query, manageableGroupIds(m.viewer)) : v.ids;
    const prepared = preparePeopleBulk(
      m.db,
      m.viewer,
      {
        action: v.bulkAction,
        params: {
          groupId: v.bulkGroup,
          courseId: v.bulkCourse,
          pathId: v.bulkPath,
          dueDate: v.bulkDue,
          role: v.bulkRole === undefined ? undefined : v.bulkRole === "none" ? null : v.bulkRole,
        },
        ids,
      },
      "page",
    );
    if (!prepared.ok) {
      if (prepared.status === 403) throw new Response("Forbidden", { status: 403 });
      return json(
        submission.reply(prepared.field ? { fieldErrors: { [prepared.field]: [prepared.message] } } : { formErrors: [prepared.message] }),
        {
          status: 400,
        },
      );
    }
    const job = context.platform.jobs.enqueue(m.organization.id, m.db, PEOPLE_BULK_JOB, prepared.payload);
    return redirectWithFlash(`${PEOPLE}/bulk/${job.id}`, "bulk.flash.started");
  });
}

export function peopleBulkJobLoader({ request, context, params }: LoaderFunctionArgs) {
  return withManagedOrganization(request, context, params, area, (m) => {
    const job = /^\d{1,15}$/.test(params.jobId ?? "") ? peopleBulkJobOf(getJob(m.db, Number(params.jobId))) : undefined;
    if (!job) throw new Response("Not Found", { status: 404 });
    return { job: peopleBulkView(job), detail: peopleBulkDetail(m.db, job), back: PEOPLE, locale: dateLocaleFor(m.viewer) };
  });
}
