import { z } from "zod";
import { COMPLIANCE_COLUMNS } from "~/utils/compliance-query";
import { compliancePeopleApi, complianceReportApi } from "~/screens/compliance.server";
import { call, E, guarded, id, isoDate, page, type ApiCall } from "../contract.server";

/**
 * The compliance report (issue 34; docs/decisions/037-compliance-report.md) as /api calls, with the dashboard
 * page's filters and the same reach: organization admins see everyone, group admins the current members of
 * the groups they administer (read:analytics). States are worked out on the organization's local day.
 */
const counts = {
  assigned: z.number().int(),
  done: z.number().int(),
  in_progress: z.number().int(),
  not_started: z.number().int(),
  overdue: z.number().int(),
  expiring: z.number().int(),
};
const state = z.enum(["overdue", "not_started", "in_progress", "done"]);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

const report = z.object({
  today: day,
  expiring_until: day,
  time_zone: z.string(),
  scope: z.enum(["organization", "groups"]),
  course_id: id.nullable(),
  group_id: id.nullable(),
  totals: z.object(counts),
  courses: z.array(z.object({ course_id: id, title: z.string(), ...counts })),
  paths: z.array(z.object({ path_id: id, title: z.string(), ...counts })),
  groups: z.array(z.object({ group_id: id, name: z.string(), ...counts })),
});
const person = z.object({
  user_id: id,
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  course_id: id.nullable(),
  course_title: z.string().nullable(),
  path_id: id.nullable(),
  path_title: z.string().nullable(),
  state,
  due_on: day,
  started: z.boolean(),
  completed_at: isoDate.nullable(),
  expires_on: day.nullable(),
});

// The query as the reference shows it; the calls read it with the dashboard's own parser
// (app/utils/compliance-query.ts `parseComplianceQuery`), whose errors are a translated 422.
const digits = z.string().regex(/^\d+$/);
const reportQuery = z.object({ course_id: digits.optional(), group_id: digits.optional() });
const peopleQuery = reportQuery.extend({
  path_id: digits.optional(),
  state: z.enum(COMPLIANCE_COLUMNS).optional(),
  due_from: day.optional(),
  due_to: day.optional(),
  q: z.string().max(200).optional(),
  page: digits.optional(),
  per_page: digits.optional(),
});

const sample = { assigned: 12, done: 7, in_progress: 2, not_started: 1, overdue: 2, expiring: 1 };

export const complianceCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/compliance",
    tag: "Compliance",
    summary: "Compliance report",
    description:
      "Per course (people assigned it), per learning path (people assigned it; none when narrowed to a course) and per group (its current members' assigned courses): assigned, done, in progress, not started, overdue and expiring within 30 days, on the organization's local day. `course_id` and `group_id` narrow it. Group admins get their groups' current members.",
    access: "read:analytics",
    query: reportQuery,
    reply: report,
    errors: guarded(E.invalid),
    example: {
      query: { course_id: "7" },
      reply: {
        today: "2026-06-14",
        expiring_until: "2026-07-14",
        time_zone: "Europe/Copenhagen",
        scope: "organization",
        course_id: 7,
        group_id: null,
        totals: sample,
        courses: [{ course_id: 7, title: "Fire safety", ...sample }],
        paths: [],
        groups: [{ group_id: 2, name: "Warehouse", ...sample }],
      },
    },
    ownInput: true,
    handler: complianceReportApi,
  }),
  call({
    method: "GET",
    path: "/api/compliance/people",
    tag: "Compliance",
    summary: "The people behind the compliance report",
    description:
      "Each person and assigned course matching the filters, overdue first: `course_id`, or `path_id` for the people of a learning path (each row then names the path, not a course), `group_id`, `state` (assigned, done, in_progress, not_started, overdue, expiring), `due_from` and `due_to` (local days), `q` (part of a name or e-mail address), `page`, `per_page`.",
    access: "read:analytics",
    query: peopleQuery,
    reply: page(person),
    errors: guarded(E.invalid),
    example: {
      query: { state: "overdue", course_id: "7" },
      reply: {
        data: [
          {
            user_id: 42,
            email: "ann@example.com",
            first_name: "Ann",
            last_name: "Berg",
            course_id: 7,
            course_title: "Fire safety",
            path_id: null,
            path_title: null,
            state: "overdue",
            due_on: "2026-06-11",
            started: true,
            completed_at: null,
            expires_on: null,
          },
        ],
        meta: { current_page: 1, per_page: 20, total: 1, last_page: 1 },
      },
    },
    ownInput: true,
    handler: compliancePeopleApi,
  }),
];
