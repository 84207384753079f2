import { and, asc, desc, eq, inArray, like, min, ne } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { courseCompletions, courses, groups, learningPaths, lessons, pathEnrolments, users } from "../../db/tenant";
import { viewerOfMember } from "../../app/access/viewer";
import { membershipsOf } from "../../app/models/group-members.server";
import { assignPath } from "../../app/models/paths/assignments.server";
import { pathSchema, pathStepsSchema } from "../../app/models/forms/paths";
import { enrolInPath, progressOnPath } from "../../app/models/paths/enrolments.server";
import { createPath, setPathSteps } from "../../app/models/paths/paths.server";

const TEXTS: Record<string, { title: string; description: string; electives: string; safety: string; safetyText: string }> = {
  en: {
    title: "Onboarding path",
    description: "<p>Your first weeks: the welcome film, one of two short series to choose from, then the essentials.</p>",
    electives: "One of two",
    safety: "Safe and secure at work",
    safetyText: "<p>The safety basics first, then the safety course a few days later, and a short check to finish.</p>",
  },
  da: {
    title: "Introduktionsforløb",
    description: "<p>Dine første uger: velkomstfilmen, én af to korte serier efter eget valg, og så det vigtigste.</p>",
    electives: "Én af to",
    safety: "Tryg og sikker på arbejdet",
    safetyText: "<p>Først det grundlæggende om sikkerhed, så sikkerhedskurset et par dage senere, og til sidst en kort test.</p>",
  },
};

/**
 * Paths assigned (issue 49), as the admin assigns them: the spaced path to the organization's first group, due in
 * two weeks, and the onboarding to the demo's own learner, due in a week (they have begun it by themselves).
 */
export function seedPathAssignmentsDemo(db: TenantConn, { now }: { now: Date }) {
  const [onboarding, safety] = db
    .select({ id: learningPaths.id })
    .from(learningPaths)
    .orderBy(asc(learningPaths.id))
    .all()
    .map((p) => p.id);
  if (!onboarding) return;
  const admin = db.select().from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).get();
  if (!admin) return;
  const viewer = viewerOfMember({ organization: null, db: db as never, language: "en" }, admin, membershipsOf(db, admin.id));
  const day = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  const group = db.select({ id: groups.id }).from(groups).orderBy(asc(groups.id)).get();
  if (safety && group)
    assignPath(db, viewer, { pathId: safety, target: { kind: "group", groupId: group.id }, due: { kind: "date", date: day(14) } }, now);
  const learner = db.select({ id: users.id }).from(users).where(like(users.email, "learner@%")).get();
  if (learner)
    assignPath(
      db,
      viewer,
      { pathId: onboarding, target: { kind: "person", userId: learner.id }, due: { kind: "date", date: day(7) } },
      now,
    );
}

/** A course's cover, for a path that starts with it. */
const coverOf = (db: TenantConn, courseId: number) =>
  db.select({ cover: courses.coverFileId }).from(courses).where(eq(courses.id, courseId)).get()?.cover ?? null;

/** The first published course with a lesson of this kind, if any. */
function courseWithLesson(db: TenantConn, kind: "quiz" | "package"): number | undefined {
  return db
    .select({ id: courses.id })
    .from(courses)
    .innerJoin(lessons, eq(lessons.courseId, courses.id))
    .where(and(eq(courses.published, true), eq(lessons.kind, kind)))
    .orderBy(asc(courses.id))
    .limit(1)
    .get()?.id;
}

/**
 * A second path, spaced: a course of the onboarding's choice (a course in two paths), the safety package course
 * three days after it, and the quiz course to finish; the learners who completed its first course enrolled as of
 * then, so some wait out the delay and some have it open.
 */
function seedSafetyPath(db: TenantConn, text: (typeof TEXTS)["en"], first: number, now: Date) {
  const safety = courseWithLesson(db, "package");
  const quiz = courseWithLesson(db, "quiz");
  if (!safety || !quiz) return null;
  const made = createPath(
    db,
    pathSchema.parse({ title: text.safety, description: text.safetyText, published: true, points: 50, cover_file_id: coverOf(db, safety) }),
  );
  if (!made.ok) throw new Error(`demo path: ${made.message}`);
  const set = setPathSteps(
    db,
    made.value.id,
    pathStepsSchema.parse({ steps: [{ course_ids: [first] }, { course_ids: [safety], delay_days: 3 }, { course_ids: [quiz] }] }),
  );
  if (!set?.ok) throw new Error("demo path steps");
  const recent = db
    .select({ userId: courseCompletions.userId, at: courseCompletions.completedAt })
    .from(courseCompletions)
    .innerJoin(users, eq(users.id, courseCompletions.userId))
    .where(and(eq(courseCompletions.courseId, first), eq(users.role, "learner")))
    .orderBy(desc(courseCompletions.completedAt), asc(courseCompletions.userId))
    .limit(12)
    .all();
  for (const { userId, at } of recent) enrolInPath(db, { pathId: made.value.id, userId, source: "self", now: at ?? now });
  return made.value.id;
}

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
    pathSchema.parse({
      title: text.title,
      description: text.description,
      published: true,
      allow_certificates: true,
      cover_file_id: coverOf(db, a),
      // In the catalogue under its first course's category, so the category's page lists it.
      category_id: db.select({ category: courses.categoryId }).from(courses).where(eq(courses.id, a)).get()?.category ?? null,
    }),
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
  // The demo's own learner is on both paths, the onboarding begun ten days ago.
  const demoLearner = db.select({ id: users.id }).from(users).where(like(users.email, "learner@%")).get();
  const safetyPath = seedSafetyPath(db, text, b, now);
  if (demoLearner) {
    enrolInPath(db, { pathId, userId: demoLearner.id, source: "self", now: new Date(now.getTime() - 10 * 86_400_000) });
    if (safetyPath) enrolInPath(db, { pathId: safetyPath, userId: demoLearner.id, source: "self", now });
  }
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
