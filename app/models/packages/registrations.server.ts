import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { packageRegistrations, type PackageRegistration } from "../../../db/tenant";
import { lessonActivityId } from "../xapi/lesson-activity.server";

/*
 * A learner's registrations of a package lesson (docs/decisions/044-xapi-cmi5-packages.md): one open at a time;
 * a retake or a review closes it and opens another, and the closed ones stay as the learner's history. The
 * ids the LMS gives the course, its blocks and AUs in statements (cmi5 §8.1.5, §9.4: never the publisher's)
 * are made here, the same for every registration.
 */

/** The learner's open registration of a lesson, or a new one (`fresh`: the open one closed first). */
export function openRegistration(
  db: TenantConn,
  { lessonId, userId, fresh = false, now = new Date() }: { lessonId: number; userId: number; fresh?: boolean; now?: Date },
): PackageRegistration {
  return db.transaction((tx) => {
    const where = and(
      eq(packageRegistrations.lessonId, lessonId),
      eq(packageRegistrations.userId, userId),
      isNull(packageRegistrations.closedAt),
    );
    const open = tx.select().from(packageRegistrations).where(where).get();
    if (open && !fresh) return open;
    if (open) tx.update(packageRegistrations).set({ closedAt: now }).where(eq(packageRegistrations.id, open.id)).run();
    return tx
      .insert(packageRegistrations)
      .values({ lessonId, userId, registration: crypto.randomUUID(), startedAt: now })
      .returning()
      .get();
  });
}

const short = (publisherId: string) => crypto.createHash("sha256").update(publisherId).digest("hex").slice(0, 16);

/** The LMS's ids for a lesson's course (the lesson's own activity id), and for its blocks and AUs. */
export function lmsIds(origin: string, lesson: { id: number; courseId: number }) {
  const course = lessonActivityId(origin, lesson);
  return {
    course,
    block: (publisherId: string) => `${course}/block/${short(publisherId)}`,
    au: (publisherId: string) => `${course}/au/${short(publisherId)}`,
  };
}

/** A registration by its id (the UUID statements carry), case as given or lower. */
export function findRegistration(db: TenantConn, registration: string): PackageRegistration | undefined {
  return db.select().from(packageRegistrations).where(eq(packageRegistrations.registration, registration.toLowerCase())).get();
}

/** A registration that is still the open one of this lesson (what an admin's waiver may name), or undefined. */
export function openRegistrationOfLesson(db: TenantConn, registration: string, lessonId: number): PackageRegistration | undefined {
  const found = findRegistration(db, registration);
  return found && found.lessonId === lessonId && found.closedAt === null ? found : undefined;
}
