import crypto from "node:crypto";
import type { TenantConn } from "../../../db/open";
import { cmi5AuStates, type ContentPackage, type Lesson } from "../../../db/tenant";
import { storeStatements } from "../xapi/statements.server";
import { learnerAgent } from "../xapi/lesson-results.server";
import { aus, type Cmi5Course } from "./cmi5-structure";
import { waivedStatement } from "./launch-data";
import { lmsAuthority, lmsCredential } from "./lms-credential.server";
import { lmsIds, openRegistration } from "./registrations.server";
import { auStates, evaluateSatisfaction } from "./satisfaction.server";

/*
 * An admin waives an AU for a learner (cmi5 §9.3.7; docs/decisions/044-xapi-cmi5-packages.md): the LMS's
 * `waived` statement with the reason, in a session of its own, once per AU and registration; a waived AU counts
 * as having met its moveOn, so its block, the course and the lesson may follow (satisfaction.server.ts).
 * Who may waive is the caller's to check (app/access: write:course over the course).
 */

export type Waived = { ok: true } | { ok: false; problem: "no_au" | "already" | "not_cmi5" | "no_reason" };

export function waiveAu(
  db: TenantConn,
  {
    pkg,
    lesson,
    userId,
    auId,
    reason,
    origin,
    now = new Date(),
  }: { pkg: ContentPackage; lesson: Lesson; userId: number; auId: string; reason: string; origin: string; now?: Date },
): Waived {
  if (pkg.kind !== "cmi5") return { ok: false, problem: "not_cmi5" };
  const why = reason.trim().slice(0, 200);
  if (!why) return { ok: false, problem: "no_reason" };
  const course = pkg.structure as Cmi5Course;
  if (!aus(course.children).some((a) => a.id === auId)) return { ok: false, problem: "no_au" };
  return db.transaction((tx): Waived => {
    const registration = openRegistration(tx, { lessonId: lesson.id, userId, now });
    if ((auStates(tx, registration.id).get(auId)?.waivedReason ?? null) !== null) return { ok: false, problem: "already" };
    const sessionId = crypto.randomUUID();
    const of = {
      actor: learnerAgent(origin, { id: userId }),
      registration: registration.registration,
      sessionId,
      au: { id: auId },
      activityId: lmsIds(origin, lesson).au(auId),
      timestamp: now,
    };
    const stored = storeStatements(tx, lmsCredential(tx, now), waivedStatement(of, why), {
      version: "2.0.0",
      authority: lmsAuthority(origin),
      now,
    });
    if (!stored.ok) throw new Error(`the waived statement was refused: ${stored.message}`);
    tx.insert(cmi5AuStates)
      .values({ registrationId: registration.id, auId, waivedReason: why })
      .onConflictDoUpdate({ target: [cmi5AuStates.registrationId, cmi5AuStates.auId], set: { waivedReason: why } })
      .run();
    evaluateSatisfaction(tx, { registration, course, origin, sessionId, auId }, now);
    return { ok: true };
  });
}
