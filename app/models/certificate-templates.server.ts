import { asc, count, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import {
  certificateTemplates,
  courseCertificateTemplates,
  courses,
  files,
  type CertificateBlock,
  type CertificateLayout,
  type CertificateTemplate,
} from "../../db/tenant";
import { layoutSchema } from "./forms/certificates";
import type { WriteResult } from "./resource";

/**
 * Certificate templates (docs/decisions/015-certificates.md): a page, a background image, the logo, and text
 * blocks with placeholders; the courses that issue with each, and the organization's default. A certificate
 * keeps the layout it was issued with, so changing or deleting a template changes no issued certificate.
 */

export type { CertificateBlock, CertificateLayout };

export const PLACEHOLDERS = [
  "learner_name",
  "course_title",
  "completion_date",
  "score",
  "organization_name",
  "certificate_id",
  "verification_url",
  // Recertification (issue 34): the last day the completion is valid on; a block using it is left out of
  // certificates that never expire (app/models/certificate-html.server.ts).
  "expiry_date",
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

export const templateSchema = z.object({
  name: z.string({ required_error: "validation.required" }).trim().min(1, "validation.required").max(200),
  is_default: z.boolean().default(false),
  layout: layoutSchema.default({}),
  course_ids: z.array(z.number().int().positive()).max(500).optional(),
});
export const templateUpdateSchema = templateSchema.partial();
export type TemplateInput = z.infer<typeof templateSchema>;

export interface StarterLabels {
  heading: string;
  certifies: string;
  completed: string;
  score: string;
  verify: string;
}

const ENGLISH_LABELS: StarterLabels = {
  heading: "Certificate of completion",
  certifies: "This certifies that",
  completed: "has completed the course",
  score: "Score: {score}",
  verify: "Certificate {certificate_id} · verify at {verification_url}",
};

/** The blocks a new template starts with: every placeholder in a sensible place, in the admin's words. */
export function starterBlocks(labels: StarterLabels = ENGLISH_LABELS): CertificateBlock[] {
  const b = (text: string, y: number, size: number, bold = false): CertificateBlock => ({
    text,
    x: 10,
    y,
    width: 80,
    size,
    align: "center",
    bold,
    color: "#1f2937",
  });
  return [
    b(labels.heading, 14, 34, true),
    b(labels.certifies, 30, 14),
    b("{learner_name}", 37, 30, true),
    b(labels.completed, 50, 14),
    b("{course_title}", 56, 22, true),
    b("{completion_date} · {organization_name}", 68, 12),
    b(labels.score, 73, 12),
    b(labels.verify, 88, 9),
  ];
}

export const DEFAULT_LAYOUT: CertificateLayout = {
  pageSize: "a4",
  orientation: "landscape",
  backgroundFileId: null,
  showLogo: true,
  showQr: true,
  blocks: starterBlocks(),
};

export function listTemplates(db: TenantConn) {
  return db
    .select()
    .from(certificateTemplates)
    .orderBy(desc(certificateTemplates.isDefault), asc(certificateTemplates.name), asc(certificateTemplates.id))
    .all();
}

export function getTemplate(db: TenantConn, id: number) {
  return db.select().from(certificateTemplates).where(eq(certificateTemplates.id, id)).get();
}

export function templateCourseIds(db: TenantConn, templateId: number) {
  return db
    .select({ id: courseCertificateTemplates.courseId })
    .from(courseCertificateTemplates)
    .where(eq(courseCertificateTemplates.templateId, templateId))
    .all()
    .map((r) => r.id);
}

function checkLayout(db: TenantConn, layout: CertificateLayout): WriteResult<null> {
  if (layout.backgroundFileId !== null) {
    const file = db.select().from(files).where(eq(files.id, layout.backgroundFileId)).get();
    if (!file || file.kind !== "image") return { ok: false, field: "background_file_id", message: "certificates.errors.background" };
  }
  return { ok: true, value: null };
}

function setTemplateCourses(tx: TenantConn, templateId: number, courseIds: number[]): WriteResult<null> {
  const unique = [...new Set(courseIds)];
  if (unique.length) {
    const found = tx.select({ id: courses.id }).from(courses).where(inArray(courses.id, unique)).all();
    if (found.length !== unique.length) return { ok: false, field: "course_ids", message: "validation.invalid" };
  }
  tx.delete(courseCertificateTemplates).where(eq(courseCertificateTemplates.templateId, templateId)).run();
  for (const courseId of unique) {
    tx.insert(courseCertificateTemplates)
      .values({ courseId, templateId })
      .onConflictDoUpdate({ target: courseCertificateTemplates.courseId, set: { templateId } })
      .run();
  }
  return { ok: true, value: null };
}

class Refused extends Error {
  constructor(readonly result: WriteResult<never>) {
    super("refused");
  }
}

function inTransaction<T>(db: TenantConn, work: (tx: TenantConn) => T): WriteResult<T> {
  try {
    return { ok: true, value: db.transaction((tx) => work(tx)) };
  } catch (error) {
    if (error instanceof Refused) return error.result;
    throw error;
  }
}

function must(result: WriteResult<unknown>) {
  if (!result.ok) throw new Refused(result);
}

export function createTemplate(db: TenantConn, input: TemplateInput): WriteResult<CertificateTemplate> {
  return inTransaction(db, (tx) => {
    const layout = layoutSchema.parse(input.layout);
    must(checkLayout(tx, layout));
    const first = (tx.select({ n: count() }).from(certificateTemplates).get()?.n ?? 0) === 0;
    const isDefault = input.is_default || first;
    if (isDefault) tx.update(certificateTemplates).set({ isDefault: false }).run();
    const row = tx.insert(certificateTemplates).values({ name: input.name, isDefault, layout }).returning().get();
    if (input.course_ids) must(setTemplateCourses(tx, row.id, input.course_ids));
    return row;
  });
}

export function updateTemplate(
  db: TenantConn,
  id: number,
  input: z.infer<typeof templateUpdateSchema>,
): WriteResult<CertificateTemplate> | null {
  const existing = getTemplate(db, id);
  if (!existing) return null;
  return inTransaction(db, (tx) => {
    const changes: Partial<CertificateTemplate> = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.layout !== undefined) {
      const layout = layoutSchema.parse(input.layout);
      must(checkLayout(tx, layout));
      changes.layout = layout;
    }
    if (input.is_default) {
      tx.update(certificateTemplates).set({ isDefault: false }).run();
      changes.isDefault = true;
    }
    if (input.course_ids) must(setTemplateCourses(tx, id, input.course_ids));
    return Object.keys(changes).length
      ? tx.update(certificateTemplates).set(changes).where(eq(certificateTemplates.id, id)).returning().get()!
      : existing;
  });
}

/** Deleting the default makes the oldest remaining template the default. Issued certificates keep their snapshot. */
export function deleteTemplate(db: TenantConn, id: number) {
  return db.transaction((tx) => {
    const removed = tx.delete(certificateTemplates).where(eq(certificateTemplates.id, id)).returning().get();
    if (removed?.isDefault) {
      const next = tx.select().from(certificateTemplates).orderBy(asc(certificateTemplates.id)).get();
      if (next) tx.update(certificateTemplates).set({ isDefault: true }).where(eq(certificateTemplates.id, next.id)).run();
    }
    return Boolean(removed);
  });
}

/** The template a course issues with: its own, else the organization's default, else none. */
export function templateForCourse(db: TenantConn, courseId: number) {
  const own = db
    .select({ t: certificateTemplates })
    .from(courseCertificateTemplates)
    .innerJoin(certificateTemplates, eq(certificateTemplates.id, courseCertificateTemplates.templateId))
    .where(eq(courseCertificateTemplates.courseId, courseId))
    .get()?.t;
  return own ?? db.select().from(certificateTemplates).where(eq(certificateTemplates.isDefault, true)).get();
}

export function templateView(template: CertificateTemplate, courseIds: number[]) {
  return {
    id: template.id,
    name: template.name,
    is_default: template.isDefault,
    layout: {
      page_size: template.layout.pageSize,
      orientation: template.layout.orientation,
      background_file_id: template.layout.backgroundFileId,
      show_logo: template.layout.showLogo,
      show_qr: template.layout.showQr,
      blocks: template.layout.blocks,
    },
    course_ids: courseIds,
    created_at: template.createdAt.toISOString(),
    updated_at: template.updatedAt.toISOString(),
  };
}
export type TemplateView = ReturnType<typeof templateView>;

/** Every course, for choosing which use a template (with whether it issues certificates at all). */
export function courseChoices(db: TenantConn) {
  return db
    .select({ id: courses.id, title: courses.title, allowCertificates: courses.allowCertificates })
    .from(courses)
    .orderBy(asc(courses.position), asc(courses.id))
    .all();
}
