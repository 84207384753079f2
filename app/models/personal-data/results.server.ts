import { asc, eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { courses, lessons, quizAttempts, quizzes, scormAttempts } from "../../../db/tenant";
import { certificateView, listOwnCertificates } from "../certificate.server";
import { verificationUrl } from "../certificate-render.server";
import { attemptView as quizAttemptView } from "../quiz-player.server";
import { attemptView as scormAttemptView } from "../scorm/runtime.server";
import { iso } from "./account.server";

/*
 * The export's results (../personal-data.server.ts): quiz attempts as the quiz player shows them to their
 * learner, certificates as /api shows them, SCORM runtime data as committed.
 */

/**
 * Every quiz attempt, with the questions as they were when it started and their answers. While an attempt is
 * open nothing tells right from wrong (app/models/quiz-player.server.ts `attemptView`): the export must not
 * be a way to read a quiz's answers before submitting.
 */
export function quizAttemptsOf(db: TenantConn, userId: number) {
  return db
    .select({ attempt: quizAttempts, quiz: quizzes.title })
    .from(quizAttempts)
    .leftJoin(quizzes, eq(quizzes.id, quizAttempts.quizId))
    .where(eq(quizAttempts.userId, userId))
    .orderBy(asc(quizAttempts.startedAt), asc(quizAttempts.id))
    .all()
    .map(({ attempt, quiz }) => {
      const { user_id: _user, ...view } = quizAttemptView(db, attempt);
      return { quiz_title: quiz, ...view };
    });
}

/** Their certificates: ids, course, score, dates and verification link; not the PDF nor the template's layout. */
export function certificatesOf(db: TenantConn, userId: number, env: { origin: string; timeZone?: string; now: Date }) {
  return listOwnCertificates(db, userId).map((c) => {
    const { user_id: _user, pdf_ready: _pdf, ...view } = certificateView(c, verificationUrl(env, c.publicId), env);
    return { ...view, cycle: c.cycle, language: c.locale };
  });
}

/** Lectern's own keys in a SCO's data (which launch committed last), not the person's. */
const BOOKKEEPING = /^lectern\./;

/** Their SCORM runtime data per lesson and SCO: the CMI elements as committed, statuses, score and time. */
export function scormAttemptsOf(db: TenantConn, userId: number) {
  return db
    .select({ attempt: scormAttempts, lesson: lessons.title, courseId: lessons.courseId, course: courses.title })
    .from(scormAttempts)
    .leftJoin(lessons, eq(lessons.id, scormAttempts.lessonId))
    .leftJoin(courses, eq(courses.id, lessons.courseId))
    .where(eq(scormAttempts.userId, userId))
    .orderBy(asc(scormAttempts.lessonId), asc(scormAttempts.id))
    .all()
    .map(({ attempt, lesson, courseId, course }) => ({
      course_id: courseId,
      course_title: course,
      lesson_title: lesson,
      ...scormAttemptView(attempt),
      completed_at: iso(attempt.completedAt),
      started_at: iso(attempt.createdAt),
      cmi: Object.fromEntries(Object.entries(attempt.cmi).filter(([key]) => !BOOKKEEPING.test(key))),
    }));
}
