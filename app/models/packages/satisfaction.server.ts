import { eq, sql } from "drizzle-orm";
import { preparedOnce } from "../../../db/prepared";
import type { TenantConn } from "../../../db/open";
import { cmi5AuStates, lessons, packageRegistrations, type PackageRegistration } from "../../../db/tenant";
import { completeLesson } from "../learning.server";
import { storeStatements } from "../xapi/statements.server";
import { learnerAgent } from "../xapi/lesson-results.server";
import { aus, type Cmi5Au, type Cmi5Block, type Cmi5Course } from "./cmi5-structure";
import { auSatisfied } from "./cmi5-rules";
import { BLOCK_TYPE, COURSE_TYPE, satisfiedStatement } from "./launch-data";
import { lmsAuthority, lmsCredential } from "./lms-credential.server";
import { lmsIds } from "./registrations.server";

/*
 * A block's satisfaction is kept as a row `block:<its id>` of cmi5_au_states beside the AUs'.
 *
 * When a registration's AUs, blocks and course are satisfied (cmi5 §9.3.9, §13.1.4 moveOn; an AU waived counts
 * as met), and what follows (docs/decisions/044-xapi-cmi5-packages.md, 7): the LMS's `satisfied` statement for
 * each block and for the course once, and the course satisfied completes the lesson through completeLesson
 * (progress, certificates, points, compliance, analytics: as SCORM's completion does).
 */

type AuState = typeof cmi5AuStates.$inferSelect;

export function auStates(db: TenantConn, registrationId: number): Map<string, AuState> {
  // Read for every statement that moves an AU: built once per connection (db/prepared.ts).
  const query = preparedOnce(db, "packages.auStates", () =>
    db
      .select()
      .from(cmi5AuStates)
      .where(eq(cmi5AuStates.registrationId, sql.placeholder("registrationId")))
      .prepare(),
  );
  return new Map(query.all({ registrationId }).map((s) => [s.auId, s]));
}

const met = (au: Cmi5Au, state: AuState | undefined) =>
  auSatisfied(au.moveOn, { completed: !!state?.completed, passed: !!state?.passed, waived: (state?.waivedReason ?? null) !== null });

function blockMet(block: Cmi5Block | Cmi5Course, states: Map<string, AuState>): boolean {
  return block.children.every((m) => (m.kind === "au" ? met(m, states.get(m.id)) : blockMet(m, states)));
}

export interface Satisfying {
  registration: PackageRegistration;
  course: Cmi5Course;
  origin: string;
  /** The session the satisfaction comes from (an AU's launch, or a session of its own for a waiver). */
  sessionId: string;
  /** The AU whose statement (or waiver) led here: its publisher id is the statements' grouping. */
  auId: string;
}

/**
 * Records what a registration now satisfies: each AU that met its moveOn, then each block and the course not
 * satisfied before, with the LMS's statements, and the lesson completed with the course.
 */
export function evaluateSatisfaction(tx: TenantConn, { registration, course, origin, sessionId, auId }: Satisfying, now: Date) {
  const states = auStates(tx, registration.id);
  for (const au of aus(course.children))
    if (met(au, states.get(au.id)) && !states.get(au.id)?.satisfiedAt)
      tx.insert(cmi5AuStates)
        .values({ registrationId: registration.id, auId: au.id, satisfiedAt: now })
        .onConflictDoUpdate({ target: [cmi5AuStates.registrationId, cmi5AuStates.auId], set: { satisfiedAt: now } })
        .run();
  const lesson = preparedOnce(tx, "packages.lesson", () =>
    tx
      .select()
      .from(lessons)
      .where(eq(lessons.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id: registration.lessonId });
  if (!lesson) return;
  const ids = lmsIds(origin, lesson);
  const of = {
    actor: learnerAgent(origin, { id: registration.userId }),
    registration: registration.registration,
    sessionId,
    au: { id: auId },
    activityId: ids.au(auId),
    timestamp: now,
  };
  // Its grouping names the block's or the course's own publisher id (§9.6.2.3), not the AU's that led here.
  const satisfied = (target: { id: string; type: typeof BLOCK_TYPE | typeof COURSE_TYPE }, publisherId: string) =>
    storeStatements(tx, lmsCredential(tx, now), satisfiedStatement({ ...of, au: { id: publisherId } }, target), {
      version: "2.0.0",
      authority: lmsAuthority(origin),
      now,
    });
  const walk = (members: Array<Cmi5Au | Cmi5Block>) => {
    for (const m of members) {
      if (m.kind !== "block") continue;
      walk(m.children);
      const key = `block:${m.id}`;
      if (blockMet(m, states) && !states.get(key)?.satisfiedAt) {
        tx.insert(cmi5AuStates).values({ registrationId: registration.id, auId: key, satisfiedAt: now }).onConflictDoNothing().run();
        satisfied({ id: ids.block(m.id), type: BLOCK_TYPE }, m.id);
      }
    }
  };
  walk(course.children);
  if (registration.satisfiedAt || !blockMet(course, auStates(tx, registration.id))) return;
  tx.update(packageRegistrations).set({ satisfiedAt: now }).where(eq(packageRegistrations.id, registration.id)).run();
  satisfied({ id: ids.course, type: COURSE_TYPE }, course.id);
  completeLesson(tx, { userId: registration.userId, lesson, now });
}
