import { json, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import type { Viewer } from "~/access/viewer";
import {
  assignmentPeoplePage,
  assignmentSummaries,
  cannotOpenOf,
  type AssignmentSummary,
  type PersonState,
} from "~/models/assignment-reports.server";
import { createAssignment, deleteAssignment, findPeople, type AssignmentTarget } from "~/models/assignment.server";
import type { CannotOpen } from "~/models/assignment-access.server";
import { getCourse, listVisibleCourses } from "~/models/course.server";
import type { TenantConn } from "~/models/database.server";
import { assignCourseFormSchema, assignFormSchema, dueRuleOf } from "~/models/forms/assignments";
import { canManageGroup, getGroup, listGroupChoices } from "~/models/group.server";
import { requireCapability } from "~/kernel/auth.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { formatDate } from "~/utils/dates";
import { redirectWithFlash } from "~/utils/flash.server";
import { requireOrganization } from "~/utils/tenant.server";
import { readForm, text } from "~/utils/form-data.server";
import { parseForm } from "~/utils/form";
import { ASSIGNMENT_PEOPLE_LIST } from "~/models/forms/assignment-people-list";
import { isWholeList, parseListQuery } from "~/utils/list-query";
import { dateLocaleFor } from "./analytics.server";

/**
 * The assignments screens (issue 34): a course's (organization admins, in /dashboard and /admin), a group's
 * (organization admins beside the group's page; group admins from their own group, /groups/{id}/assignments).
 * Each lists the assignments with their counts, names who cannot open the course and why, shows one
 * assignment's people with their states, assigns, and takes an assignment back after a confirmation. Who
 * may do which is app/access/rules.ts `mayAssign`, asked by the model; every form posts and redirects, so
 * all of it works without JavaScript. The component is app/screens/assignments.tsx.
 */

/** People named under an assignment in the list; the rest are counted, and listed on its own view. */
const NAMED_IN_LIST = 5;
/** How many of those who cannot open the course the shown assignment names. */
const NAMED_ON_ITS_PAGE = 100;

type Course = NonNullable<ReturnType<typeof getCourse>>;
type Group = NonNullable<ReturnType<typeof getGroup>>;
type Scope = { kind: "course"; course: Course } | { kind: "group"; group: Group };

/** A local day (YYYY-MM-DD) written out like the other dates of the screens. */
const day = (value: string) => formatDate(`${value}T12:00:00Z`, { timeZone: "UTC" });

const personName = (p: { email: string; firstName: string | null; lastName: string | null }) =>
  [p.firstName, p.lastName].filter(Boolean).join(" ") || p.email;

/** Why someone cannot open the course, in the admin's words: a draft is no one's yet. */
function reasonOf(course: Pick<Course, "published">, person: CannotOpen) {
  return !course.published ? "draft" : person.reason;
}

function summaryView(a: AssignmentSummary, course: Pick<Course, "published"> | undefined, blocked: CannotOpen[]) {
  return {
    id: a.id,
    courseId: a.courseId,
    courseTitle: a.courseTitle,
    target: a.target,
    person: a.person ? { name: personName(a.person), email: a.person.email } : null,
    groupId: a.groupId,
    groupName: a.groupName,
    ruleGroup: a.ruleGroup,
    due: a.dueKind === "date" ? { kind: "date" as const, date: day(a.dueDate!) } : { kind: "days" as const, days: a.dueDays! },
    assigned: a.assigned,
    done: a.done,
    overdue: a.overdue,
    cannotOpen: {
      total: blocked.length,
      named: blocked.slice(0, NAMED_IN_LIST).map((p) => ({
        userId: p.userId,
        name: personName(p),
        email: p.email,
        reason: course ? reasonOf(course, p) : p.reason,
      })),
    },
  };
}
export type AssignmentRow = ReturnType<typeof summaryView>;

function positive(value: string | null) {
  return value && /^\d{1,15}$/.test(value) ? Number(value) : null;
}

/**
 * What every assignments screen shows: the list, and — by the address, so it works without JavaScript —
 * one assignment's people (`?assignment=`, with the list's parameters: app/models/forms/assignment-people-list.ts) or the confirmation to remove one
 * (`?remove=`).
 */
function screenData(db: TenantConn, viewer: Viewer, request: Request, scope: Scope) {
  const url = new URL(request.url);
  const summaries = assignmentSummaries(db, viewer, scope.kind === "course" ? { courseId: scope.course.id } : { groupId: scope.group.id });
  const courses = new Map<number, Course | undefined>();
  const courseOf = (id: number) => {
    if (!courses.has(id)) courses.set(id, getCourse(db, id));
    return courses.get(id);
  };
  // Who cannot open each course, asked once an assignment: the list names a few, the shown assignment all of them.
  const blockedOf = new Map(summaries.map((a) => [a.id, cannotOpenOf(db, viewer, a.id)]));
  const rows = summaries.map((a) => summaryView(a, courseOf(a.courseId), blockedOf.get(a.id)!));

  const shownId = positive(url.searchParams.get("assignment"));
  const shown = rows.find((r) => r.id === shownId) ?? null;
  const { query, errors } = parseListQuery(url, ASSIGNMENT_PEOPLE_LIST);
  const state = query.filters.state as PersonState | undefined;
  const people = shown ? assignmentPeoplePage(db, viewer, shown.id, { ...query, state }) : null;
  const course = shown ? courseOf(shown.courseId) : undefined;
  const blocked = shown && course ? (blockedOf.get(shown.id) ?? []) : [];

  const removeId = positive(url.searchParams.get("remove"));
  return {
    assignments: rows,
    selected:
      shown && people
        ? {
            assignment: shown,
            state: state ?? null,
            query: { ...query, page: people.page },
            errors,
            page: { page: people.page, pages: people.pages, total: people.total, perPage: query.perPage },
            filtered: !isWholeList(query, ASSIGNMENT_PEOPLE_LIST),
            locale: dateLocaleFor(viewer),
            total: people.total,
            counts: people.counts,
            people: people.items.map((p) => ({
              userId: p.userId,
              name: personName(p),
              email: p.email,
              dueOn: day(p.dueOn),
              completedOn: p.completedAt ? formatDate(p.completedAt) : null,
              leftOn: p.leftAt ? formatDate(p.leftAt) : null,
              state: p.state,
            })),
            // A hundred of them, and how many more: an assignment of 50,000 may have hundreds who cannot.
            cannotOpen: blocked
              .slice(0, NAMED_ON_ITS_PAGE)
              .map((p) => ({ userId: p.userId, name: personName(p), email: p.email, reason: reasonOf(course!, p) })),
            cannotOpenTotal: blocked.length,
          }
        : null,
    removing: rows.find((r) => r.id === removeId) ?? null,
  };
}

// ——— the course's screen (organization admins) ———

function courseFrom(m: Managed, id: string | undefined) {
  const course = /^\d{1,15}$/.test(id ?? "") ? getCourse(m.db, Number(id)) : undefined;
  if (!course) throw new Response("Not Found", { status: 404 });
  return course;
}

export function courseAssignmentsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, (m) => {
      const course = courseFrom(m, params.courseId);
      const here = `${m.base}/courses/${course.id}/assignments`;
      return {
        scope: "course" as const,
        here,
        back: `${m.base}/courses/${course.id}`,
        title: course.title,
        draft: !course.published,
        groups: listGroupChoices(m.db, m.viewer),
        courses: [] as { id: number; title: string; draft: boolean }[],
        ...screenData(m.db, m.viewer, request, { kind: "course", course }),
      };
    });
}

export function courseAssignmentsAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, async (m) => {
      const course = courseFrom(m, params.courseId);
      return assignmentsAction(m.db, m.viewer, await readForm(request, context), {
        here: `${m.base}/courses/${course.id}/assignments`,
        scope: { kind: "course", course },
      });
    });
}

// ——— a group's screen (organization admins in the dashboard, group admins from their group) ———

function groupData(db: TenantConn, viewer: Viewer, request: Request, group: Group, { here, back }: { here: string; back: string }) {
  return {
    scope: "group" as const,
    here,
    back,
    title: group.name,
    draft: false,
    groups: [] as { id: number; name: string; ruleGroup: boolean }[],
    // The courses this viewer sees listed: those the model lets them assign (drafts only for those who preview).
    courses: listVisibleCourses(db, viewer, { page: 1, perPage: 500 }).items.map((c) => ({
      id: c.id,
      title: c.title,
      draft: !c.published,
    })),
    ...screenData(db, viewer, request, { kind: "group", group }),
  };
}

function groupFrom(m: Managed, id: string | undefined) {
  const group = /^\d{1,15}$/.test(id ?? "") ? getGroup(m.db, Number(id)) : undefined;
  if (!group) throw new Response("Not Found", { status: 404 });
  return group;
}

export function groupAssignmentsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, (m) => {
      const group = groupFrom(m, params.groupId);
      const back = `${m.base}/groups/${group.id}`;
      return groupData(m.db, m.viewer, request, group, { here: `${back}/assignments`, back });
    });
}

export function groupAssignmentsAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:group" }, async (m) => {
      const group = groupFrom(m, params.groupId);
      return assignmentsAction(m.db, m.viewer, await readForm(request, context), {
        here: `${m.base}/groups/${group.id}/assignments`,
        scope: { kind: "group", group },
      });
    });
}

/** A group admin's own group (screens/group-admin.tsx): another group's page does not exist for them. */
function myGroup(request: Request, context: AppLoadContext, id: string | undefined) {
  const { db } = requireOrganization(context);
  const viewer = requireCapability(request, context, "write:group");
  const group = /^\d{1,15}$/.test(id ?? "") ? getGroup(db, Number(id)) : undefined;
  if (!group || !canManageGroup(viewer, group.id)) throw new Response("Not Found", { status: 404 });
  return { db, viewer, group };
}

export function myGroupAssignmentsLoader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer, group } = myGroup(request, context, params.groupId);
  const back = `/groups/${group.id}`;
  return groupData(db, viewer, request, group, { here: `${back}/assignments`, back });
}

export async function myGroupAssignmentsAction({ request, context, params }: ActionFunctionArgs) {
  const { db, viewer, group } = myGroup(request, context, params.groupId);
  return assignmentsAction(db, viewer, await readForm(request, context), {
    here: `/groups/${group.id}/assignments`,
    scope: { kind: "group", group },
  });
}

// ——— the forms ———

/** What an assign form answers when refused: conform's reply, and the people an ambiguous search found. */
export type AssignReply = { result: SubmissionResult<string[]>; choices?: { id: number; name: string; email: string }[] };

/** The model's refusal on the form's fields (its `userId` is the form's person, `courseId` the course's choice). */
function fieldOf(field: string | undefined, scope: Scope) {
  if (field === "userId") return "person";
  if (field === "courseId") return scope.kind === "group" ? "courseId" : "";
  return field ?? "";
}

async function assignmentsAction(db: TenantConn, viewer: Viewer, formData: FormData, { here, scope }: { here: string; scope: Scope }) {
  const intent = text(formData, "intent");
  if (intent === "remove") {
    const id = positive(text(formData, "assignmentId") ?? null);
    const removed = id === null ? null : deleteAssignment(db, viewer, id);
    if (!removed || !removed.ok)
      throw new Response(removed?.status === 403 ? "Forbidden" : "Not Found", { status: removed?.status ?? 404 });
    return redirectWithFlash(here, "assigning.flash.removed");
  }
  if (intent !== "assign") throw new Response("Bad Request", { status: 400 });

  const refuse = (result: SubmissionResult<string[]>, choices?: AssignReply["choices"]) =>
    json<AssignReply>({ result, choices }, { status: 400 });
  let courseId: number;
  let target: AssignmentTarget;
  let due: ReturnType<typeof dueRuleOf>;
  let submission;
  if (scope.kind === "course") {
    submission = parseForm(formData, assignFormSchema);
    if (submission.status !== "success") return refuse(submission.reply());
    const value = submission.value;
    courseId = scope.course.id;
    due = dueRuleOf(value);
    if (value.target === "group") target = { kind: "group", groupId: value.groupId! };
    else if (value.userId !== undefined) target = { kind: "person", userId: value.userId };
    else {
      // What was typed: an e-mail, or part of a name or address. One person found is assigned; several are offered.
      const found = findPeople(db, value.person ?? "");
      if (found.length === 0) return refuse(submission.reply({ fieldErrors: { person: ["assigning.errors.noMatch"] } }));
      if (found.length > 1)
        return refuse(
          submission.reply({ fieldErrors: { person: ["assigning.errors.choosePerson"] } }),
          found.map((p) => ({ id: p.id, name: personName(p), email: p.email })),
        );
      target = { kind: "person", userId: found[0].id };
    }
  } else {
    submission = parseForm(formData, assignCourseFormSchema);
    if (submission.status !== "success") return refuse(submission.reply());
    courseId = submission.value.courseId;
    due = dueRuleOf(submission.value);
    target = { kind: "group", groupId: scope.group.id };
  }
  const result = createAssignment(db, viewer, { courseId, target, due });
  if (!result.ok) {
    if (result.status === 403) throw new Response("Forbidden", { status: 403 });
    const field = fieldOf(result.field, scope);
    return refuse(submission.reply(field ? { fieldErrors: { [field]: [result.message] } } : { formErrors: [result.message] }));
  }
  return redirectWithFlash(`${here}?assignment=${result.assignment.id}#people`, "assigning.flash.assigned");
}
