import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { isOrganizationAdmin } from "~/access/rules";
import { z } from "zod";
import {
  addMembers,
  addRule,
  attachCourses,
  attachSchema,
  canManageGroup,
  deleteGroup,
  getGroup,
  groupView,
  listGroups,
  ruleSchema,
  saveGroup,
  setMemberAdmin,
  type RuleInput,
} from "~/models/group.server";
import { apiError, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import type { Capability } from "~/utils/capabilities";
import { pageSchema, paginated } from "~/utils/pagination";

/**
 * Spec §7 "Groups": `groups` (the generic resource calls) and `POST groups/{id}/attach`. Organization
 * admins manage every group; a group admin (write:group, scoped) reads its own groups and attaches
 * people to them — nothing else: creating, editing, deleting, courses and admins are the organization's.
 */
async function scope(request: Request, context: AppLoadContext, capability: Capability) {
  if (!context.organization || !context.db) throw await apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability });
  return { db: context.db, viewer: auth };
}

async function forbidden(request: Request, context: AppLoadContext) {
  const t = await apiT(request, context);
  return apiError(403, { message: t("api.forbidden"), code: "forbidden" });
}

async function invalid(request: Request, context: AppLoadContext, field: string, message: string) {
  const t = await apiT(request, context);
  return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { [field]: [t(message)] } });
}

/** `POST groups` / `PUT groups/{id}` body. `rules` (create only) are added in order. */
export const groupBodySchema = z.object({
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(2000).default(""),
  cover_file_id: z.number().int().positive().nullable().default(null),
  rule_match: z.enum(["all", "any"]).default("all"),
  rules: z.array(z.object({ field: z.string(), operator: z.string(), value: z.union([z.string(), z.number()]) })).max(50).default([]),
});

/** `PUT groups/{id}` body: the group's fields; its rules are changed on the group screen. */
export const groupUpdateSchema = groupBodySchema.omit({ rules: true });

const idOf = (params: Record<string, string | undefined>) => (/^\d{1,15}$/.test(params.id ?? "") ? Number(params.id) : null);

export async function listGroupsLoader({ request, context }: LoaderFunctionArgs, search = false) {
  const { db, viewer } = await scope(request, context, "read:group");
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const page = pageSchema.safeParse(query);
  const q = search ? z.string().trim().min(1).max(200).safeParse(query.q) : { success: true as const, data: undefined };
  if (!page.success || !q.success) return invalid(request, context, !page.success ? "page" : "q", "validation.invalid");
  const all = listGroups(db, viewer, { q: q.data });
  const p = { page: page.data.page, perPage: page.data.per_page };
  const items = all.slice((p.page - 1) * p.perPage, p.page * p.perPage).map((g) => groupView(db, g));
  return apiOk(paginated(items, all.length, p));
}

export async function createGroupAction({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["GET", "POST"]);
  const { db, viewer } = await scope(request, context, "write:group");
  if (!isOrganizationAdmin(viewer)) return forbidden(request, context);
  const body = await parseApiBody(request, context, groupBodySchema);
  const rules: RuleInput[] = [];
  for (const [i, raw] of body.rules.entries()) {
    const rule = ruleSchema.safeParse(raw);
    if (!rule.success) return invalid(request, context, `rules.${i}.${rule.error.issues[0].path.join(".")}`, rule.error.issues[0].message);
    rules.push(rule.data);
  }
  let refused: { field: string; message: string } | null = null;
  const created = (() => {
    try {
      return db.transaction((tx) => {
        const saved = saveGroup(tx, null, { name: body.name, description: body.description, coverFileId: body.cover_file_id, ruleMatch: body.rule_match });
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
    return invalid(request, context, field, message);
  }
  return apiOk(groupView(db, created), 201);
}

export async function groupItemLoader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer } = await scope(request, context, "read:group");
  const id = idOf(params);
  const group = id !== null && canManageGroup(viewer, id) ? getGroup(db, id) : undefined;
  return group ? apiOk(groupView(db, group)) : apiNotFound(request, context);
}

export async function groupItemAction({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") return apiMethodNotAllowed(request, context, ["GET", "PUT", "DELETE"]);
  const { db, viewer } = await scope(request, context, "write:group");
  const id = idOf(params);
  const group = id !== null && canManageGroup(viewer, id) ? getGroup(db, id) : undefined;
  if (!group) return apiNotFound(request, context);
  if (!isOrganizationAdmin(viewer)) return forbidden(request, context);
  if (request.method === "DELETE") {
    deleteGroup(db, group.id);
    return apiOk({ id: group.id, deleted: true });
  }
  const body = await parseApiBody(request, context, groupUpdateSchema);
  const saved = saveGroup(db, group.id, { name: body.name, description: body.description, coverFileId: body.cover_file_id, ruleMatch: body.rule_match });
  if (!saved) return apiNotFound(request, context);
  if (!saved.ok) return invalid(request, context, "cover_file_id", saved.message);
  return apiOk(groupView(db, saved.group));
}

/**
 * `POST groups/{id}/attach {user_ids?, admin_ids?, course_ids?}` (attachSchema): adds people as members
 * (by hand), people as the group's admins, and courses. Group admins may attach people to their own
 * groups only; admins and courses are the organization admin's. Unknown ids are ignored and counted.
 */
export async function attachAction({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  const { db, viewer } = await scope(request, context, "write:group");
  const id = idOf(params);
  const group = id !== null && canManageGroup(viewer, id) ? getGroup(db, id) : undefined;
  if (!group) return apiNotFound(request, context);
  const body = await parseApiBody(request, context, attachSchema);
  if (!isOrganizationAdmin(viewer) && (body.admin_ids.length || body.course_ids.length)) return forbidden(request, context);
  const result = db.transaction((tx) => {
    const users = addMembers(tx, group.id, body.user_ids);
    const admins = addMembers(tx, group.id, body.admin_ids, { admin: true });
    for (const userId of body.admin_ids) setMemberAdmin(tx, group.id, userId, true);
    const courses = attachCourses(tx, group.id, body.course_ids);
    return { users, admins, courses };
  });
  return apiOk({ group: groupView(db, group), attached: result });
}
