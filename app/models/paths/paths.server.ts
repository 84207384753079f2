import { asc, eq, inArray } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import {
  badges,
  categories,
  certificateTemplates,
  courses,
  files,
  learningPaths,
  pathStepCourses,
  pathSteps,
  type LearningPath,
} from "../../../db/tenant";
import type { WriteResult } from "../resource";
import type { PathInput, PathStepsInput } from "../forms/paths";
import { sanitizeRichText } from "../../utils/sanitize.server";
import { stepRules } from "./enrolments.server";

/*
 * Learning paths as their admins make them (issue 49, docs/decisions/045-learning-paths.md): a path's fields, and
 * its steps replaced whole (added, ordered and grouped on the editor or through /api) in one transaction, each
 * course checked to be the organization's. Who may do this is app/access's to say before these are called.
 */

const columns = (input: PathInput) => ({
  title: input.title,
  description: sanitizeRichText(input.description),
  published: input.published,
  blockDefaultAccess: input.block_default_access,
  forceGroups: input.force_groups,
  selfEnrol: input.self_enrol,
  categoryId: input.category_id,
  coverFileId: input.cover_file_id,
  allowCertificates: input.allow_certificates,
  points: input.points,
  validityMonths: input.validity_months,
  reassignDaysBefore: input.reassign_days_before,
  certificateTemplateId: input.certificate_template_id,
  badgeId: input.badge_id,
});

/** A path's references point inside this organization, to rows that exist: its category, an image for its cover. */
function unknownReference(db: TenantConn, input: PathInput): WriteResult<never> | null {
  // Re-assignment comes after the completion (a month counted as its shortest, 28 days), as a course's does.
  if (input.validity_months !== null && input.reassign_days_before >= input.validity_months * 28)
    return { ok: false, field: "reassign_days_before", message: "recertification.errors.reassignTooEarly" };
  if (input.category_id !== null && !db.select({ id: categories.id }).from(categories).where(eq(categories.id, input.category_id)).get())
    return { ok: false, field: "category_id", message: "validation.invalid" };
  if (input.cover_file_id !== null) {
    const cover = db.select({ kind: files.kind }).from(files).where(eq(files.id, input.cover_file_id)).get();
    if (cover?.kind !== "image") return { ok: false, field: "cover_file_id", message: "validation.invalid" };
  }
  if (
    input.certificate_template_id !== null &&
    !db
      .select({ id: certificateTemplates.id })
      .from(certificateTemplates)
      .where(eq(certificateTemplates.id, input.certificate_template_id))
      .get()
  )
    return { ok: false, field: "certificate_template_id", message: "validation.invalid" };
  if (input.badge_id !== null && !db.select({ id: badges.id }).from(badges).where(eq(badges.id, input.badge_id)).get())
    return { ok: false, field: "badge_id", message: "validation.invalid" };
  return null;
}

export function createPath(db: TenantConn, input: PathInput): WriteResult<LearningPath> {
  const refused = unknownReference(db, input);
  if (refused) return refused;
  const last = db.select({ position: learningPaths.position }).from(learningPaths).orderBy(asc(learningPaths.position)).all().at(-1);
  return {
    ok: true,
    value: db
      .insert(learningPaths)
      .values({ ...columns(input), position: (last?.position ?? -1) + 1 })
      .returning()
      .get(),
  };
}

export function updatePath(db: TenantConn, id: number, input: PathInput): WriteResult<LearningPath> | null {
  if (!db.select({ id: learningPaths.id }).from(learningPaths).where(eq(learningPaths.id, id)).get()) return null;
  const refused = unknownReference(db, input);
  if (refused) return refused;
  const value = db
    .update(learningPaths)
    .set({ ...columns(input), updatedAt: new Date() })
    .where(eq(learningPaths.id, id))
    .returning()
    .get()!;
  return { ok: true, value };
}

export function getPath(db: TenantConn, id: number): LearningPath | undefined {
  return db.select().from(learningPaths).where(eq(learningPaths.id, id)).get();
}

export function deletePath(db: TenantConn, id: number): boolean {
  return db.delete(learningPaths).where(eq(learningPaths.id, id)).run().changes === 1;
}

/** Replaces a path's steps with `input`'s, in order; refused whole when a course is not the organization's. */
export function setPathSteps(db: TenantConn, pathId: number, input: PathStepsInput): WriteResult<ReturnType<typeof stepRules>> | null {
  if (!getPath(db, pathId)) return null;
  const wanted = [...new Set(input.steps.flatMap((s) => s.course_ids))];
  const known = new Set(
    wanted.length
      ? db
          .select({ id: courses.id })
          .from(courses)
          .where(inArray(courses.id, wanted))
          .all()
          .map((c) => c.id)
      : [],
  );
  const missing = input.steps.findIndex((s) => s.course_ids.some((id) => !known.has(id)));
  if (missing >= 0) return { ok: false, field: `steps.${missing}.course_ids`, message: "validation.invalid" };
  db.transaction((tx) => {
    tx.delete(pathSteps).where(eq(pathSteps.pathId, pathId)).run();
    for (const [position, step] of input.steps.entries()) {
      const row = tx
        .insert(pathSteps)
        .values({ pathId, position, kind: step.kind, title: step.title, required: step.required, delayDays: step.delay_days })
        .returning()
        .get();
      tx.insert(pathStepCourses)
        .values(step.course_ids.map((courseId, i) => ({ stepId: row.id, courseId, position: i })))
        .run();
    }
  });
  return { ok: true, value: stepRules(db, pathId) };
}
