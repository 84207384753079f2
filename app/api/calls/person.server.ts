import { z } from "zod";
import { manageableGroupIds, mayReadAdminAudit, maySeePerson } from "~/access/rules";
import { membershipsOf } from "~/models/group-members.server";
import { personOverview } from "~/models/person-page.server";
import { apiNotFound } from "~/utils/api.server";
import { call, guarded, id, isoDate, type ApiCall } from "../contract.server";

/**
 * A person, whole (issue 50; app/models/person-page.server.ts), as the person's page shows them. Organization admins
 * read anyone; a group admin only someone in a group they administer (anyone else is not found, as nobody is).
 */
const list = z.array(z.object({}).passthrough());
const overview = z.object({
  profile: z.object({
    id,
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string().nullable(),
    role: z.enum(["admin", "learner"]).nullable(),
    language: z.string().nullable(),
    disabled: z.boolean(),
    created_at: isoDate,
    last_seen_at: isoDate.nullable(),
  }),
  groups: z.array(z.object({ id, name: z.string(), admin: z.boolean(), source: z.string() })),
  courses: list,
  paths: list,
  assignments: z.array(
    z.object({
      kind: z.enum(["course", "path"]),
      title: z.string(),
      due_on: z.string(),
      group: z.string().nullable(),
      state: z.enum(["not_started", "in_progress", "overdue", "done"]),
    }),
  ),
  quiz_attempts: list,
  certificates: list,
  points: z.number().int(),
  badges: list,
  scorm: list,
  xapi: z.object({ statements: z.number().int(), last: isoDate.nullable() }),
  audit: list,
});

export const personCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/users/{id}/overview",
    tag: "Users",
    summary: "A person, whole",
    description:
      "Their profile and when they were last seen, groups, each course begun with its progress and last activity, learning paths, assignments and their state, quiz attempts, certificates, points and badges, SCORM results, how many xAPI statements are about them, and what admins changed about them (each list its 50 most recent). Organization admins read anyone; a group admin only the people of the groups they administer, and of them only those groups, without the audit (which is the organization admins').",
    access: "read:user",
    reply: overview,
    errors: guarded(),
    example: {
      reply: {
        profile: {
          id: 12,
          email: "sam@example.com",
          first_name: "Sam",
          last_name: "Berg",
          phone: null,
          role: "learner",
          language: null,
          disabled: false,
          created_at: "2026-05-04T09:30:00.000Z",
          last_seen_at: "2026-11-28T08:10:00.000Z",
        },
        groups: [{ id: 2, name: "Warehouse", admin: false, source: "manual" }],
        courses: [{ id: 4, title: "Fire safety", done: 3, lessons: 5, last: "2026-11-27T14:00:00.000Z", completed_at: null }],
        paths: [],
        assignments: [{ kind: "course", title: "Fire safety", due_on: "2026-12-15", group: "Warehouse", state: "in_progress" }],
        quiz_attempts: [],
        certificates: [],
        points: 120,
        badges: [],
        scorm: [],
        xapi: { statements: 0, last: null },
        audit: [],
      },
    },
    handler: ({ request, context, params, viewer }) => {
      const db = context.db!;
      const personId = /^\d{1,15}$/.test(params.id ?? "") ? Number(params.id) : 0;
      const origins = [context.platform.originFor(context.organization!), new URL(request.url).origin];
      const reach = { groups: manageableGroupIds(viewer), audit: mayReadAdminAudit(viewer), origins };
      const found = personId ? personOverview(db, personId, reach) : undefined;
      if (
        !found ||
        !maySeePerson(
          viewer,
          membershipsOf(db, personId).map((m) => m.groupId),
        )
      )
        return apiNotFound(request, context);
      return found;
    },
  }),
];
