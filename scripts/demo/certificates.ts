import { eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courses, users } from "../../db/tenant";
import { createTemplate, DEFAULT_LAYOUT, starterBlocks } from "../../app/models/certificate-templates.server";
import { issueCertificate } from "../../app/models/certificate-issuing.server";

const WORDS = {
  en: {
    name: "Certificate of completion",
    labels: {
      heading: "Certificate of completion",
      certifies: "This certifies that",
      completed: "has completed the course",
      score: "Score: {score}",
      verify: "Certificate {certificate_id} · verify at {verification_url}",
    },
  },
  da: {
    name: "Kursusbevis",
    labels: {
      heading: "Kursusbevis",
      certifies: "Hermed bekræftes det, at",
      completed: "har gennemført kurset",
      score: "Resultat: {score}",
      verify: "Bevis {certificate_id} · bekræft på {verification_url}",
    },
  },
};

/**
 * Certificates in the demo (issue 12): the organization's default template, certificates on for the
 * course `courseTitle`, and that course completed by the demo learner with their certificate issued (its
 * PDF is rendered the first time it is opened).
 */
export function seedCertificatesDemo(
  db: TenantConn,
  { courseTitle, learnerEmail, language }: { courseTitle: string; learnerEmail: string; language: "en" | "da" },
) {
  const words = WORDS[language];
  db.transaction((tx) => {
    const created = createTemplate(tx, {
      name: words.name,
      is_default: true,
      layout: { ...DEFAULT_LAYOUT, blocks: starterBlocks(words.labels) },
      course_ids: [],
    });
    if (!created.ok) throw new Error(created.message);
    const course = tx.select().from(courses).where(eq(courses.title, courseTitle)).get();
    const learner = tx.select().from(users).where(eq(users.email, learnerEmail)).get();
    if (!course || !learner) throw new Error(`demo certificates: ${courseTitle} or ${learnerEmail} is missing`);
    tx.update(courses).set({ allowCertificates: true }).where(eq(courses.id, course.id)).run();
    // Only the certificate: the demo's progress (and the tests that read it) stay as they were.
    const at = new Date(Date.now() - 3 * 86_400_000);
    issueCertificate(tx, { userId: learner.id, courseId: course.id, at });
  });
}
