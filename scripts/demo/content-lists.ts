import { and, desc, eq, isNull, ne } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { certificates, courses, lessons, quizLessons, users } from "../../db/tenant";
import { createTemplate, DEFAULT_LAYOUT, starterBlocks } from "../../app/models/certificate-templates.server";
import { revokeCertificate } from "../../app/models/certificate.server";
import { createQuiz } from "../../app/models/quiz-authoring.server";

const WORDS = {
  en: {
    quiz: "Fire drill check (last year's)",
    quizDescription: "Last year's questions, kept for reference.",
    template: "Security awareness certificate",
    labels: {
      heading: "Security awareness",
      certifies: "This certifies that",
      completed: "has passed the check",
      score: "Score: {score}",
      verify: "Certificate {certificate_id} · verify at {verification_url}",
    },
    reason: "Issued by mistake: the course was completed on a shared account.",
  },
  da: {
    quiz: "Brandøvelse (sidste års)",
    quizDescription: "Sidste års spørgsmål, gemt til opslag.",
    template: "Bevis for sikkerhedsbevidsthed",
    labels: {
      heading: "Sikkerhedsbevidsthed",
      certifies: "Hermed bekræftes det, at",
      completed: "har bestået testen",
      score: "Resultat: {score}",
      verify: "Bevis {certificate_id} · bekræft på {verification_url}",
    },
    reason: "Udstedt ved en fejl: kurset blev gennemført på en delt konto.",
  },
};

/**
 * What the quizzes, certificate templates and issued certificates lists (issue 50) filter on, in the demo: a quiz
 * no lesson uses, whose deadline has passed; a second template, used by the quizzes' course; and one certificate
 * revoked (the newest of a generated learner's that never expires, so the demo learner's stay valid). After the
 * demo's quizzes and certificates.
 */
export function seedContentListsDemo(
  db: TenantConn,
  { language, learnerEmail, now }: { language: "en" | "da"; learnerEmail: string; now: Date },
) {
  const words = WORDS[language];
  db.transaction((tx) => {
    const quiz = createQuiz(tx, {
      title: words.quiz,
      description: words.quizDescription,
      deadline: new Date(now.getTime() - 30 * 86_400_000),
      pass_min: 0,
      max_attempts: 1,
      questions: [],
    });
    if (!quiz.ok) throw new Error(`demo quiz: ${quiz.message}`);
    const quizCourse = tx
      .select({ id: lessons.courseId })
      .from(quizLessons)
      .innerJoin(lessons, eq(lessons.id, quizLessons.lessonId))
      .orderBy(quizLessons.lessonId)
      .get();
    const template = createTemplate(tx, {
      name: words.template,
      is_default: false,
      layout: { ...DEFAULT_LAYOUT, blocks: starterBlocks(words.labels) },
      course_ids: quizCourse ? [quizCourse.id] : [],
    });
    if (!template.ok) throw new Error(template.message);
    const learner = tx.select({ id: users.id }).from(users).where(eq(users.email, learnerEmail)).get();
    const revoked = tx
      .select({ id: certificates.id })
      .from(certificates)
      .innerJoin(courses, eq(courses.id, certificates.courseId))
      .where(and(isNull(certificates.expiresOn), ne(certificates.userId, learner?.id ?? 0)))
      .orderBy(desc(certificates.issuedAt), desc(certificates.id))
      .get();
    if (revoked) revokeCertificate(tx, revoked.id, words.reason, now);
  });
}
