import { and, asc, eq, inArray, min, ne } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courseCompletions, courses, pathEnrolments, users } from "../../db/tenant";
import { pathSchema, pathStepsSchema } from "../../app/models/forms/paths";
import { enrolInPath, progressOnPath } from "../../app/models/paths/enrolments.server";
import { createPath, setPathSteps } from "../../app/models/paths/paths.server";

const TEXTS: Record<string, { title: string; description: string; electives: string }> = {
  en: {
    title: "Onboarding path",
    description: "<p>Your first weeks: the welcome film, one of two short series to choose from, then the essentials.</p>",
    electives: "One of two",
  },
  da: {
    title: "Introduktionsforløb",
    description: "<p>Dine første uger: velkomstfilmen, én af to korte serier efter eget valg, og så det vigtigste.</p>",
    electives: "Én af to",
  },
};

/**
 * A learning path in a demo organization (issue 49): the first four courses its learners complete (not a download) as
 * an onboarding program (the first,
 * then any one of the next two, then the fourth), the learners who have completed any of them enrolled as of their
 * first completion, so the path has people at every stage, and those it is done for marked done.
 */
export function seedPathsDemo(db: TenantConn, { language, now }: { language: string; now: Date }) {
  const text = TEXTS[language] ?? TEXTS.en;
  // The courses its learners have completed (published, not a download), in the catalogue's order.
  const taken = db
    .selectDistinct({ id: courses.id })
    .from(courses)
    .innerJoin(courseCompletions, eq(courseCompletions.courseId, courses.id))
    .where(and(eq(courses.published, true), ne(courses.type, "download")))
    .orderBy(asc(courses.id))
    .limit(4)
    .all()
    .map((x) => x.id);
  if (taken.length < 3) return;
  const [a, b, c, d] = taken;
  const made = createPath(
    db,
    pathSchema.parse({ title: text.title, description: text.description, published: true, allow_certificates: true }),
  );
  if (!made.ok) throw new Error(`demo path: ${made.message}`);
  const pathId = made.value.id;
  const steps = pathStepsSchema.parse({
    steps: [
      { course_ids: [a] },
      { kind: "choice", title: text.electives, course_ids: [b, c], required: 1 },
      ...(d ? [{ course_ids: [d] }] : []),
    ],
  });
  const set = setPathSteps(db, pathId, steps);
  if (!set?.ok) throw new Error("demo path steps");
  const learners = db
    .select({ userId: courseCompletions.userId, first: min(courseCompletions.completedAt) })
    .from(courseCompletions)
    .innerJoin(users, eq(users.id, courseCompletions.userId))
    .where(and(inArray(courseCompletions.courseId, [a, b, c, d]), eq(users.role, "learner")))
    .groupBy(courseCompletions.userId)
    .orderBy(asc(courseCompletions.userId))
    .all();
  for (const { userId, first: since } of learners) {
    enrolInPath(db, { pathId, userId, source: "self", now: since ?? now });
    const found = progressOnPath(db, { pathId, userId, now });
    if (found?.progress.doneAt)
      db.update(pathEnrolments)
        .set({ completedAt: found.progress.doneAt })
        .where(and(eq(pathEnrolments.pathId, pathId), eq(pathEnrolments.userId, userId)))
        .run();
  }
}
