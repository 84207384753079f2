import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { CERTIFICATE_ORIENTATIONS, CERTIFICATE_PAGE_SIZES } from "../vocabulary";
import { courses } from "./courses";
import { files } from "./files";
import { users } from "./people";

/* Certificates (issue 12, docs/decisions/015-certificates.md). */

/** One text block of a certificate template: plain text with placeholders, placed in % of the page. */
export interface CertificateBlock {
  text: string;
  /** Left edge and top edge, in % of the page's width and height. */
  x: number;
  y: number;
  /** Width in % of the page's width. */
  width: number;
  /** Font size in points. */
  size: number;
  align: "left" | "center" | "right";
  bold: boolean;
  /** #rrggbb */
  color: string;
}

/** The look of a certificate: what is snapshot onto each certificate when it is issued. */
export interface CertificateLayout {
  pageSize: (typeof CERTIFICATE_PAGE_SIZES)[number];
  orientation: (typeof CERTIFICATE_ORIENTATIONS)[number];
  backgroundFileId: number | null;
  showLogo: boolean;
  showQr: boolean;
  blocks: CertificateBlock[];
}

export const certificateTemplates = sqliteTable("certificate_templates", {
  id: id(),
  name: text("name").notNull(),
  /** The organization's default template, used by courses that do not name one (at most one row). */
  isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
  layout: text("layout", { mode: "json" }).$type<CertificateLayout>().notNull(),
  ...timestamps(),
});

/** Which template a course with allow_certificates uses; a course without a row uses the default. */
export const courseCertificateTemplates = sqliteTable("course_certificate_templates", {
  courseId: integer("course_id")
    .primaryKey()
    .references(() => courses.id, { onDelete: "cascade" }),
  templateId: integer("template_id")
    .notNull()
    .references(() => certificateTemplates.id, { onDelete: "cascade" }),
});

/**
 * An issued certificate: once per learner and course, with a stable public id. Names, title, score and
 * the template's layout are snapshot at issue, so a certificate keeps its look and its words.
 */
export const certificates = sqliteTable(
  "certificates",
  {
    id: id(),
    /** The stable id printed on the PDF and used by the public verification page. */
    publicId: text("public_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id").references(() => courses.id, { onDelete: "set null" }),
    /** The course id at issue, kept when the course is deleted (for the one-per-course rule); 0 for a path's. */
    issuedForCourseId: integer("issued_for_course_id").notNull(),
    /**
     * A learning path's certificate (issue 49): the path's id at issue, kept when the path is deleted (one per
     * person, path and cycle); null for a course's.
     */
    issuedForPathId: integer("issued_for_path_id"),
    templateId: integer("template_id").references(() => certificateTemplates.id, { onDelete: "set null" }),
    learnerName: text("learner_name").notNull(),
    courseTitle: text("course_title").notNull(),
    /** The learner's interface language at issue: {completion_date} is written in it. */
    locale: text("locale").notNull(),
    /** Quiz score out of 100 at issue, when the course has one. */
    score: integer("score"),
    layout: text("layout", { mode: "json" }).$type<CertificateLayout>().notNull(),
    issuedAt: integer("issued_at", { mode: "timestamp" }).notNull(),
    /** The completion cycle it was issued for (course_completions.cycle): one certificate per cycle. */
    cycle: integer("cycle").notNull().default(1),
    /** The completion's expiry day at issue (YYYY-MM-DD, organization's zone); null: it never expires. */
    expiresOn: text("expires_on"),
    /** The rendered PDF (a row of `files`), once the render job has run. */
    pdfFileId: integer("pdf_file_id").references(() => files.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at", { mode: "timestamp" }),
    revokedReason: text("revoked_reason"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("certificates_public_id_unique").on(t.publicId),
    uniqueIndex("certificates_user_course_cycle_unique")
      .on(t.userId, t.issuedForCourseId, t.cycle)
      .where(sql`${t.issuedForPathId} is null`),
    uniqueIndex("certificates_user_path_cycle_unique")
      .on(t.userId, t.issuedForPathId, t.cycle)
      .where(sql`${t.issuedForPathId} is not null`),
    // The issued certificates list at 300,000 (issue 50; app/models/certificate-list.server.ts): newest first, a
    // course's or a template's, by state, and searched or sorted by person without reading each row's layout.
    index("certificates_issued_idx").on(t.issuedAt),
    index("certificates_course_issued_idx").on(t.courseId, t.issuedAt),
    index("certificates_template_issued_idx").on(t.templateId, t.issuedAt),
    index("certificates_state_idx").on(t.revokedAt, t.expiresOn),
    index("certificates_person_idx").on(t.learnerName, t.courseTitle, t.publicId, t.userId),
    // A learner's own certificates, newest first (/profile/certificates): 346–461 against 2–3 ms at 200,000.
    index("certificates_user_issued_idx").on(t.userId, t.issuedAt),
  ],
);

export type CertificateTemplate = typeof certificateTemplates.$inferSelect;
export type Certificate = typeof certificates.$inferSelect;
