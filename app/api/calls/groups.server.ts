import { z } from "zod";
import { isOrganizationAdmin } from "~/access/rules";
import type { Viewer } from "~/access/viewer";
import type { TenantDb } from "~/models/database.server";
import { addRule } from "~/models/group-rules.server";
import { attachCourses } from "~/models/group-courses.server";
import { attachSchema } from "~/models/group-members.server";
import { canManageGroup, deleteGroup, getGroup, groupView as groupReply, listGroups, saveGroup } from "~/models/group.server";
import { ruleSchema, type RuleInput } from "~/models/forms/groups";
import { addToGroup } from "~/models/group-membership.server";
import { apiError, apiForbidden, apiNotFound, apiRefusedFields, apiT } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, deleted, E, guarded, id, isoDate, page, type ApiCall } from "../contract.server";

/**
 * docs/product.md §7 "Groups". Organization admins manage every group; a group admin (write:group, scoped) reads its
 * own groups and attaches people to them — nothing else: creating, editing, deleting, courses and admins
 * are the organization's.
 */
const stamp = "2026-05-04T09:30:00.000Z";
const meta1 = { current_page: 1, per_page: 20, total: 1, last_page: 1 };
const admin = guarded(E.invalid, E.invalidBody);
const NOT_MANAGED = {
  status: 403,
  code: "not_managed",
  when: "a group admin named someone who is not already in a group they administer, an organization admin, or an id nobody has: nothing was added; an organization admin can add them",
};

export const groupSearchQuery = pageSchema.extend({ q: z.string().trim().min(1).max(200) });

/** `POST groups` / `PUT groups/{id}` body. `rules` (create only) are added in order. */
export const groupBodySchema = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(2000).default(""),
  cover_file_id: z.number().int().positive().nullable().default(null),
  rule_match: z.enum(["all", "any"]).default("all"),
  rules: z
    .array(z.object({ field: z.string(), operator: z.string(), value: z.union([z.string(), z.number()]) }))
    .max(50)
    .default([]),
});

/** `PUT groups/{id}` body: the group's fields; its rules are changed on the group screen. */
export const groupUpdateSchema = groupBodySchema.omit({ rules: true });

const idOf = (params: Record<string, string>) => (/^\d{1,15}$/.test(params.id ?? "") ? Number(params.id) : null);

function manageable(db: TenantDb, viewer: Viewer, params: Record<string, string>) {
  const id = idOf(params);
  return id !== null && canManageGroup(viewer, id) ? getGroup(db, id) : undefined;
}

function listed(db: TenantDb, viewer: Viewer, p0: { page: number; per_page: number }, q?: string) {
  const all = listGroups(db, viewer, { q });
  const p = { page: p0.page, perPage: p0.per_page };
  return paginated(
    all.slice((p.page - 1) * p.perPage, p.page * p.perPage).map((g) => groupReply(db, g)),
    all.length,
    p,
  );
}

const groupView = z.object({
  id,
  name: z.string(),
  description: z.string(),
  cover_file_id: id.nullable(),
  rule_match: z.enum(["all", "any"]),
  rules: z.array(z.object({ id, field: z.string(), operator: z.string(), value: z.union([z.string(), z.number()]) })),
  course_ids: z.array(id),
  member_count: z.number().int(),
  admin_ids: z.array(id),
  created_at: isoDate,
});
const groupExample = {
  id: 2,
  name: "Warehouse",
  description: "",
  cover_file_id: null,
  rule_match: "all",
  rules: [],
  course_ids: [7],
  member_count: 14,
  admin_ids: [3],
  created_at: stamp,
};

export const groupCalls: ApiCall[] = [
  call({
    method: "GET",
    path: "/api/groups",
    tag: "Groups",
    summary: "Groups",
    description: "Organization admins see every group; group admins their own.",
    access: "read:group",
    query: pageSchema,
    reply: page(groupView),
    errors: guarded(E.invalid),
    example: { reply: { data: [groupExample], meta: meta1 } },
    handler: ({ context, viewer, query }) => listed(context.db!, viewer, query),
  }),
  call({
    method: "POST",
    path: "/api/groups",
    tag: "Groups",
    summary: "Create a group",
    description: "Organization admins only. `rules` are added in order; people who match join by themselves.",
    access: "write:group",
    body: groupBodySchema,
    reply: groupView,
    status: 201,
    errors: admin,
    example: {
      body: { name: "Warehouse", rule_match: "all", rules: [{ field: "email", operator: "ends_with", value: "@warehouse.example.com" }] },
      reply: groupExample,
    },
    before: ({ request, context, viewer }) => (isOrganizationAdmin(viewer) ? undefined : apiForbidden(request, context)),
    handler: async ({ request, context, body }) => {
      const db = context.db!;
      const rules: RuleInput[] = [];
      for (const [i, raw] of body.rules.entries()) {
        const rule = ruleSchema.safeParse(raw);
        if (!rule.success)
          return apiRefusedFields(request, context, {
            [`rules.${i}.${rule.error.issues[0].path.join(".")}`]: rule.error.issues[0].message,
          });
        rules.push(rule.data);
      }
      let refused: { field: string; message: string } | null = null;
      const created = (() => {
        try {
          return db.transaction((tx) => {
            const saved = saveGroup(tx, null, {
              name: body.name,
              description: body.description,
              coverFileId: body.cover_file_id,
              ruleMatch: body.rule_match,
            });
            if (!saved?.ok) throw (refused = { field: "cover_file_id", message: saved?.message ?? "validation.invalid" });
            for (const [i, rule] of rules.entries()) {
              const added = addRule(tx, saved.group.id, rule);
              if (!added.ok) throw (refused = { field: `rules.${i}.${added.field}`, message: added.message });
            }
            return saved.group;
          });
        } catch (error) {
          if (refused) return null; // the transaction rolled back: nothing of the group remains
          throw error;
        }
      })();
      if (!created) {
        const { field, message } = refused as unknown as { field: string; message: string };
        return apiRefusedFields(request, context, { [field]: message });
      }
      return groupReply(db, created);
    },
  }),
  call({
    method: "GET",
    path: "/api/groups/search",
    tag: "Groups",
    summary: "Search groups",
    access: "read:group",
    query: groupSearchQuery,
    reply: page(groupView),
    errors: guarded(E.invalid),
    example: { query: { q: "ware" }, reply: { data: [groupExample], meta: meta1 } },
    handler: ({ context, viewer, query }) => listed(context.db!, viewer, query, query.q),
  }),
  call({
    method: "GET",
    path: "/api/groups/{id}",
    tag: "Groups",
    summary: "One group",
    access: "read:group",
    reply: groupView,
    errors: guarded(),
    example: { reply: groupExample },
    handler: ({ request, context, params, viewer }) => {
      const group = manageable(context.db!, viewer, params);
      return group ? groupReply(context.db!, group) : apiNotFound(request, context);
    },
  }),
  call({
    method: "PUT",
    path: "/api/groups/{id}",
    tag: "Groups",
    summary: "Change a group",
    description: "Organization admins only.",
    access: "write:group",
    body: groupUpdateSchema,
    reply: groupView,
    errors: admin,
    example: { body: { name: "Warehouse (north)" }, reply: { ...groupExample, name: "Warehouse (north)" } },
    before: ({ request, context, params, viewer }) => {
      if (!manageable(context.db!, viewer, params)) return apiNotFound(request, context);
      if (!isOrganizationAdmin(viewer)) return apiForbidden(request, context);
    },
    handler: async ({ request, context, params, viewer, body }) => {
      const db = context.db!;
      const group = manageable(db, viewer, params)!;
      const saved = saveGroup(db, group.id, {
        name: body.name,
        description: body.description,
        coverFileId: body.cover_file_id,
        ruleMatch: body.rule_match,
      });
      if (!saved) return apiNotFound(request, context);
      if (!saved.ok) return apiRefusedFields(request, context, { ["cover_file_id"]: saved.message });
      return groupReply(db, saved.group);
    },
  }),
  call({
    method: "DELETE",
    path: "/api/groups/{id}",
    tag: "Groups",
    summary: "Delete a group",
    description: "Organization admins only.",
    access: "write:group",
    reply: deleted,
    errors: guarded(),
    example: { reply: { id: 2, deleted: true } },
    handler: ({ request, context, params, viewer }) => {
      const db = context.db!;
      const group = manageable(db, viewer, params);
      if (!group) return apiNotFound(request, context);
      if (!isOrganizationAdmin(viewer)) return apiForbidden(request, context);
      deleteGroup(db, group.id);
      return { id: group.id, deleted: true };
    },
  }),
  call({
    method: "POST",
    path: "/api/groups/{id}/attach",
    tag: "Groups",
    summary: "Add members, group admins or courses",
    description:
      "Group admins may add to their own groups only people who are already members of a group they administer (never an organization admin); anyone else is refused whole, whether or not the id exists. Admins and courses are the organization admins'. Each change is in the audit (`GET /api/audit`).",
    access: "write:group",
    body: attachSchema,
    reply: z.object({ group: groupView, attached: z.object({}).passthrough() }),
    errors: [...admin, NOT_MANAGED],
    example: {
      body: { user_ids: [12, 13] },
      reply: { group: { ...groupExample, member_count: 16 }, attached: { users: 2, admins: 0, courses: 0 } },
    },
    // An organization admin's unknown ids are ignored (and not counted).
    before: ({ request, context, params, viewer }) => (manageable(context.db!, viewer, params) ? undefined : apiNotFound(request, context)),
    handler: async ({ request, context, params, viewer, body }) => {
      const db = context.db!;
      const group = manageable(db, viewer, params)!;
      if (!isOrganizationAdmin(viewer) && (body.admin_ids.length || body.course_ids.length)) return apiForbidden(request, context);
      const result = db.transaction((tx) => {
        const added = addToGroup(tx, viewer, group.id, { userIds: body.user_ids, adminIds: body.admin_ids }, "api");
        if (!added.ok) return added;
        return { users: added.added, admins: added.admins, courses: attachCourses(tx, group.id, body.course_ids) };
      });
      if ("ok" in result) {
        if (result.refused === "no_group") return apiNotFound(request, context);
        const t = await apiT(request, context);
        const message = t("groups.errors.notManaged");
        return apiError(403, { message, code: NOT_MANAGED.code, fields: { user_ids: [message] } });
      }
      return { group: groupReply(db, group), attached: result };
    },
  }),
];
