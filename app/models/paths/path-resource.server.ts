import { and, asc, count, eq, like } from "drizzle-orm";
import type { TenantDb } from "../../../db/open";
import { learningPaths, type LearningPath } from "../../../db/tenant";
import { visiblePaths } from "../../access/paths";
import type { Viewer } from "../../access/viewer";
import type { Page } from "../../utils/pagination";
import { pathSchema } from "../forms/paths";
import type { Resource } from "../resource";
import { stepRules } from "./enrolments.server";
import { createPath, deletePath, getPath, updatePath } from "./paths.server";

/** A learning path as /api shows it (issue 49): its fields and its steps, each with its courses. */
export function pathView(db: TenantDb, path: LearningPath) {
  return {
    id: path.id,
    title: path.title,
    description: path.description,
    published: path.published,
    block_default_access: path.blockDefaultAccess,
    force_groups: path.forceGroups,
    self_enrol: path.selfEnrol,
    category_id: path.categoryId,
    cover_file_id: path.coverFileId,
    allow_certificates: path.allowCertificates,
    points: path.points,
    validity_months: path.validityMonths,
    reassign_days_before: path.reassignDaysBefore,
    certificate_template_id: path.certificateTemplateId,
    badge_id: path.badgeId,
    position: path.position,
    steps: stepRules(db, path.id).map((s) => ({ id: s.id, required: s.required, delay_days: s.delayDays, course_ids: [...s.courseIds] })),
    created_at: path.createdAt.toISOString(),
    updated_at: path.updatedAt.toISOString(),
  };
}
export type PathView = ReturnType<typeof pathView>;

function pageOf(db: TenantDb, viewer: Viewer, search: string | null, page: Page) {
  const where = and(visiblePaths(viewer), search ? like(learningPaths.title, `%${search.replace(/[\\%_]/g, "")}%`) : undefined);
  const items = db
    .select()
    .from(learningPaths)
    .where(where)
    .orderBy(asc(learningPaths.position), asc(learningPaths.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all()
    .map((p) => pathView(db, p));
  return { items, total: db.select({ n: count() }).from(learningPaths).where(where).get()?.n ?? 0 };
}

/** Learning paths through /api's resource calls: read as courses are (`read:course`), written as they are. */
export const pathResource: Resource<PathView, typeof pathSchema, typeof pathSchema> = {
  read: "read:course",
  write: "write:course",
  createSchema: pathSchema,
  updateSchema: pathSchema,
  list: (db, viewer, page) => pageOf(db, viewer, null, page),
  search: (db, viewer, q, page) => pageOf(db, viewer, q, page),
  get: (db, viewer, id) => {
    const where = visiblePaths(viewer);
    const row = db
      .select()
      .from(learningPaths)
      .where(where ? and(eq(learningPaths.id, id), where) : eq(learningPaths.id, id))
      .get();
    return row ? pathView(db, row) : null;
  },
  create: (db, _viewer, input) => {
    const made = createPath(db, input);
    return made.ok ? { ok: true, value: pathView(db, made.value) } : made;
  },
  update: (db, _viewer, id, input) => {
    const changed = updatePath(db, id, input);
    return changed === null ? null : changed.ok ? { ok: true, value: pathView(db, changed.value) } : changed;
  },
  remove: (db, _viewer, id) => (getPath(db, id) ? deletePath(db, id) : false),
};
