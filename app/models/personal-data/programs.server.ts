import { asc, eq } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { cmi5AuStates, learningPaths, lessons, packageLaunches, packageRegistrations, pathEnrolments } from "../../../db/tenant";

/*
 * A person's xAPI and cmi5 package attempts (issue 48) and learning paths (issue 49) in their data export
 * (app/models/personal-data.server.ts): each registration of a package lesson with its units' states and its
 * launches (the unit, the mode, when it began and how it ended; not the launch's fetch token nor credential),
 * and each path they are on with how they came to it and when they finished it.
 */
const iso = (d: Date | null) => d?.toISOString() ?? null;

export function packageAttemptsOf(db: TenantConn, userId: number) {
  const registrations = db
    .select({ r: packageRegistrations, lesson: lessons.title })
    .from(packageRegistrations)
    .leftJoin(lessons, eq(lessons.id, packageRegistrations.lessonId))
    .where(eq(packageRegistrations.userId, userId))
    .orderBy(asc(packageRegistrations.id))
    .all();
  return registrations.map(({ r, lesson }) => ({
    lesson_id: r.lessonId,
    lesson,
    registration: r.registration,
    started_at: iso(r.startedAt),
    satisfied_at: iso(r.satisfiedAt),
    closed_at: iso(r.closedAt),
    units: db
      .select()
      .from(cmi5AuStates)
      .where(eq(cmi5AuStates.registrationId, r.id))
      .all()
      .map((s) => ({
        unit: s.auId,
        completed: s.completed,
        passed: s.passed,
        failed: s.failed,
        score: s.score,
        waived_reason: s.waivedReason,
        satisfied_at: iso(s.satisfiedAt),
      })),
    launches: db
      .select()
      .from(packageLaunches)
      .where(eq(packageLaunches.registrationId, r.id))
      .orderBy(asc(packageLaunches.id))
      .all()
      .map((l) => ({
        unit: l.auId,
        session_id: l.sessionId,
        launch_mode: l.launchMode,
        launched_at: iso(l.launchedAt),
        ended_at: iso(l.endedAt),
        ended_by: l.endedBy,
      })),
  }));
}

export function pathEnrolmentsOf(db: TenantConn, userId: number) {
  return db
    .select({ e: pathEnrolments, path: learningPaths.title })
    .from(pathEnrolments)
    .leftJoin(learningPaths, eq(learningPaths.id, pathEnrolments.pathId))
    .where(eq(pathEnrolments.userId, userId))
    .orderBy(asc(pathEnrolments.enrolledAt))
    .all()
    .map(({ e, path }) => ({
      path_id: e.pathId,
      path,
      source: e.source,
      enrolled_at: iso(e.enrolledAt),
      completed_at: iso(e.completedAt),
      cycle: e.cycle,
      expires_on: e.expiresOn,
    }));
}
