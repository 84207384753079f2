import crypto from "node:crypto";
import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { preparedOnce } from "../../db/prepared";
import { z } from "zod";
import type { TenantConn } from "../../db/open";
import {
  CERTIFICATE_ORIENTATIONS,
  CERTIFICATE_PAGE_SIZES,
  certificateTemplates,
  certificates,
  courseCertificateTemplates,
  courses,
  files,
  jobs,
  users,
  type Certificate,
  type CertificateBlock,
  type CertificateLayout,
  type CertificateTemplate,
} from "../../db/tenant";
import { contains, type Page } from "../utils/pagination";
import type { Resource, WriteResult } from "./resource";
import { courseQuizScore } from "./quiz.server";
import { completionOf, cycleStart, isExpired } from "./completion-cycle.server";
import { addDays, dayIn, DEFAULT_TIME_ZONE, localMidnight } from "../utils/calendar";
import { blockSchema, layoutSchema } from "./forms/certificates";

/**
 * Certificates (issue 12, docs/decisions/015-certificates.md): templates (a page, a background image, the
 * logo, text blocks with placeholders), certificates issued once per learner and course when the course is
 * completed, with the template's layout snapshot at issue; the PDF is rendered later by a job.
 */

export type { Certificate, CertificateBlock, CertificateLayout };

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

export const RENDER_JOB = "certificate.render";

// ------------------------------------------------------------------------------------------------
// The score: ONE place to look it up.
// ------------------------------------------------------------------------------------------------

/**
 * The learner's quiz score for a course (out of 100), or null when the course has none: the best score of
 * each quiz lesson, averaged (docs/decisions/013-quizzes.md), in the current completion cycle only (a
 * renewal's certificate shows the renewal's score: docs/decisions/035-recertification.md).
 */
export function certificateScore(db: TenantConn, userId: number, courseId: number): number | null {
  return courseQuizScore(db, userId, courseId, cycleStart(db, userId, courseId));
}

// ------------------------------------------------------------------------------------------------
// Layouts and templates
// ------------------------------------------------------------------------------------------------

export { blockSchema, layoutSchema };

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

/** /api accepts the layout in snake_case (as it answers) and turns it into the stored shape. */
const apiLayout = z
  .object({
    page_size: z.enum(CERTIFICATE_PAGE_SIZES).optional(),
    orientation: z.enum(CERTIFICATE_ORIENTATIONS).optional(),
    background_file_id: z.number().int().positive().nullable().optional(),
    show_logo: z.boolean().optional(),
    show_qr: z.boolean().optional(),
    blocks: z.array(blockSchema).max(20).optional(),
  })
  .strict();

function fromApiLayout(input: z.infer<typeof apiLayout> | undefined, base: CertificateLayout): CertificateLayout {
  return {
    pageSize: input?.page_size ?? base.pageSize,
    orientation: input?.orientation ?? base.orientation,
    backgroundFileId: input?.background_file_id !== undefined ? input.background_file_id : base.backgroundFileId,
    showLogo: input?.show_logo ?? base.showLogo,
    showQr: input?.show_qr ?? base.showQr,
    blocks: input?.blocks ?? base.blocks,
  };
}

const apiCreate = z.object({
  name: templateSchema.shape.name,
  is_default: z.boolean().default(false),
  layout: apiLayout.optional(),
  course_ids: z.array(z.number().int().positive()).max(500).optional(),
});
const apiUpdate = apiCreate.partial();

export const templateResource: Resource<TemplateView, typeof apiCreate, typeof apiUpdate> = {
  read: "read:certificate-template",
  write: "write:certificate-template",
  createSchema: apiCreate,
  updateSchema: apiUpdate,
  list: (db, _viewer, page) => {
    const rows = listTemplates(db);
    const items = rows
      .slice((page.page - 1) * page.perPage, page.page * page.perPage)
      .map((t) => templateView(t, templateCourseIds(db, t.id)));
    return { items, total: rows.length };
  },
  search: (db, _viewer, q, page) => {
    const where = contains(certificateTemplates.name, q);
    const total = db.select({ n: count() }).from(certificateTemplates).where(where).get()?.n ?? 0;
    const rows = db
      .select()
      .from(certificateTemplates)
      .where(where)
      .orderBy(asc(certificateTemplates.name))
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .all();
    return { items: rows.map((t) => templateView(t, templateCourseIds(db, t.id))), total };
  },
  get: (db, _viewer, id) => {
    const t = getTemplate(db, id);
    return t ? templateView(t, templateCourseIds(db, t.id)) : null;
  },
  create: (db, _viewer, input) => {
    const result = createTemplate(db, {
      name: input.name,
      is_default: input.is_default,
      layout: fromApiLayout(input.layout, DEFAULT_LAYOUT),
      course_ids: input.course_ids,
    });
    return result.ok ? { ok: true, value: templateView(result.value, templateCourseIds(db, result.value.id)) } : result;
  },
  update: (db, _viewer, id, input) => {
    const existing = getTemplate(db, id);
    if (!existing) return null;
    const result = updateTemplate(db, id, {
      name: input.name,
      is_default: input.is_default,
      layout: input.layout ? fromApiLayout(input.layout, existing.layout) : undefined,
      course_ids: input.course_ids,
    });
    if (!result) return null;
    return result.ok ? { ok: true, value: templateView(result.value, templateCourseIds(db, id)) } : result;
  },
  remove: (db, _viewer, id) => deleteTemplate(db, id),
};

/** /api's preview input: a saved template by id, or a layout sent as it would be saved. */
export const previewQuerySchema = z.object({ template_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

// ------------------------------------------------------------------------------------------------
// Issuing
// ------------------------------------------------------------------------------------------------

/** Crockford base32 without look-alikes: 12 random characters (60 bits), shown as XXXX-XXXX-XXXX. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export function newPublicId() {
  const bytes = crypto.randomBytes(12);
  let out = "";
  for (let i = 0; i < 12; i++) out += ALPHABET[bytes[i] % 32];
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}`;
}

export const PUBLIC_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

export function learnerName(user: { firstName: string; lastName: string; email: string }) {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/**
 * Issues the learner's certificate for a completed course, once per completion cycle (subscribed to
 * courseCompleted, inside the transaction that recorded the completion). Idempotent: the (user, course,
 * cycle) unique key makes a second call, or a concurrent one, do nothing. The cycle and the expiry day are
 * the completion's (app/models/completion-cycle.server.ts; cycle 1 and no expiry without one). Returns the
 * certificate, or null when the course issues none.
 */
export function issueCertificate(
  tx: TenantConn,
  { userId, courseId, at }: { userId: number; courseId: number; at: Date },
): Certificate | null {
  const course = tx.select().from(courses).where(eq(courses.id, courseId)).get();
  if (!course?.allowCertificates) return null;
  const completion = completionOf(tx, userId, courseId);
  const cycle = completion?.cycle ?? 1;
  const ofCycle = and(eq(certificates.userId, userId), eq(certificates.issuedForCourseId, courseId), eq(certificates.cycle, cycle));
  const existing = tx.select().from(certificates).where(ofCycle).get();
  if (existing) return existing;
  const user = tx.select().from(users).where(eq(users.id, userId)).get();
  if (!user) return null;
  const template = templateForCourse(tx, courseId);
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = tx
      .insert(certificates)
      .values({
        publicId: newPublicId(),
        userId,
        courseId,
        issuedForCourseId: courseId,
        templateId: template?.id ?? null,
        learnerName: learnerName(user),
        courseTitle: course.title,
        locale: user.language ?? "",
        score: certificateScore(tx, userId, courseId),
        layout: template?.layout ?? DEFAULT_LAYOUT,
        issuedAt: at,
        cycle,
        expiresOn: completion?.expiresOn ?? null,
      })
      .onConflictDoNothing()
      .returning()
      .get();
    if (row) return row;
    // Either the certificate exists (another path issued it) or the random id collided: look, then retry.
    const now = tx.select().from(certificates).where(ofCycle).get();
    if (now) return now;
  }
  throw new Error("could not pick a unique certificate id");
}

// ------------------------------------------------------------------------------------------------
// Reading, revoking
// ------------------------------------------------------------------------------------------------

export function getCertificate(db: TenantConn, id: number) {
  return db.select().from(certificates).where(eq(certificates.id, id)).get();
}

/** A learner's own certificate; another learner's is simply not found. */
export function getOwnCertificate(db: TenantConn, userId: number, id: number) {
  return db
    .select()
    .from(certificates)
    .where(and(eq(certificates.id, id), eq(certificates.userId, userId)))
    .get();
}

export function getCertificateByPublicId(db: TenantConn, publicId: string) {
  const normalized = publicId.trim().toUpperCase();
  if (!PUBLIC_ID_PATTERN.test(normalized)) return undefined;
  return db.select().from(certificates).where(eq(certificates.publicId, normalized)).get();
}

/** The learner's latest certificate of a course (of their latest completion cycle that issued one). */
export function certificateForCourse(db: TenantConn, userId: number, courseId: number) {
  return preparedOnce(db, "certificate.forCourse", () =>
    db
      .select()
      .from(certificates)
      .where(and(eq(certificates.userId, sql.placeholder("userId")), eq(certificates.issuedForCourseId, sql.placeholder("courseId"))))
      .orderBy(desc(certificates.cycle))
      .limit(1)
      .prepare(),
  ).get({ userId, courseId });
}

export function listOwnCertificates(db: TenantConn, userId: number) {
  return db
    .select()
    .from(certificates)
    .where(eq(certificates.userId, userId))
    .orderBy(desc(certificates.issuedAt), desc(certificates.id))
    .all();
}

export function listCertificates(db: TenantConn, page: Page, { q }: { q?: string } = {}) {
  const where = q
    ? sql`(${contains(certificates.learnerName, q)} or ${contains(certificates.courseTitle, q)} or ${contains(certificates.publicId, q)})`
    : undefined;
  const total = db.select({ n: count() }).from(certificates).where(where).get()?.n ?? 0;
  const rows = db
    .select()
    .from(certificates)
    .where(where)
    .orderBy(desc(certificates.issuedAt), desc(certificates.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all();
  return { items: rows, total };
}

export { revokeSchema } from "./forms/certificates";

export function revokeCertificate(db: TenantConn, id: number, reason: string, now = new Date()) {
  return db.update(certificates).set({ revokedAt: now, revokedReason: reason }).where(eq(certificates.id, id)).returning().get();
}

export function restoreCertificate(db: TenantConn, id: number) {
  return db.update(certificates).set({ revokedAt: null, revokedReason: null }).where(eq(certificates.id, id)).returning().get();
}

/**
 * A certificate in /api. `expires_on` is the last local day it is valid on (the organization's zone), and
 * `expires_at` the instant that day ends there, when it expires at all; `expired` is said against `now`.
 */
export function certificateView(
  c: Certificate,
  verificationUrl: string,
  { timeZone, now = new Date() }: { timeZone?: string; now?: Date } = {},
) {
  const zone = timeZone ?? DEFAULT_TIME_ZONE;
  return {
    id: c.id,
    certificate_id: c.publicId,
    user_id: c.userId,
    course_id: c.courseId,
    learner_name: c.learnerName,
    course_title: c.courseTitle,
    score: c.score,
    issued_at: c.issuedAt.toISOString(),
    revoked: Boolean(c.revokedAt),
    revoked_at: c.revokedAt?.toISOString() ?? null,
    revoked_reason: c.revokedReason,
    pdf_ready: c.pdfFileId !== null,
    verification_url: verificationUrl,
    expires_on: c.expiresOn,
    expires_at: c.expiresOn ? new Date(localMidnight(addDays(c.expiresOn, 1), zone)).toISOString() : null,
    expired: isExpired(c.expiresOn, dayIn(zone, now)),
  };
}

// ------------------------------------------------------------------------------------------------
// PDF jobs
// ------------------------------------------------------------------------------------------------

/** The queued or running render job of a certificate, if any. */
export function pendingRender(db: TenantConn, certificateId: number) {
  return db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, RENDER_JOB),
        inArray(jobs.status, ["queued", "running"]),
        sql`json_extract(${jobs.payload}, '$.certificateId') = ${certificateId}`,
      ),
    )
    .get();
}

/** The last failed render of a certificate (to show why, and to offer a retry). */
export function lastRender(db: TenantConn, certificateId: number) {
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, RENDER_JOB), sql`json_extract(${jobs.payload}, '$.certificateId') = ${certificateId}`))
    .orderBy(desc(jobs.id))
    .get();
}

export function setCertificatePdf(db: TenantConn, id: number, fileId: number) {
  db.update(certificates).set({ pdfFileId: fileId }).where(eq(certificates.id, id)).run();
}

/** The PDF's download name: ascii-friendly, from the course title and the id. */
export function pdfName(c: Certificate) {
  const title =
    c.courseTitle
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60) || "certificate";
  return `certificate-${title}-${c.publicId}.pdf`;
}

/** Every course, for choosing which use a template (with whether it issues certificates at all). */
export function courseChoices(db: TenantConn) {
  return db
    .select({ id: courses.id, title: courses.title, allowCertificates: courses.allowCertificates })
    .from(courses)
    .orderBy(asc(courses.position), asc(courses.id))
    .all();
}

export type PdfState =
  | { state: "ready"; fileId: number }
  | { state: "preparing"; jobId: number }
  | { state: "failed"; jobId: number; error: string | null }
  | { state: "none" };

/** Where a certificate's PDF stands: rendered, being rendered, failed last time, or never asked for. */
export function pdfState(db: TenantConn, certificate: Certificate): PdfState {
  if (certificate.pdfFileId) return { state: "ready", fileId: certificate.pdfFileId };
  const pending = pendingRender(db, certificate.id);
  if (pending) return { state: "preparing", jobId: pending.id };
  const last = lastRender(db, certificate.id);
  if (last?.status === "failed") return { state: "failed", jobId: last.id, error: last.error };
  return { state: "none" };
}

/** For a course page: the learner's certificate of that course, if one was issued. */
export function courseCertificateSummary(db: TenantConn, userId: number, courseId: number) {
  const c = certificateForCourse(db, userId, courseId);
  return c
    ? { id: c.id, publicId: c.publicId, revoked: Boolean(c.revokedAt), issuedAt: c.issuedAt.toISOString(), expiresOn: c.expiresOn }
    : null;
}
