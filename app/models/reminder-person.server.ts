import { and, eq, inArray, sql } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import {
  courses,
  learningPaths,
  lessonProgress,
  pathStepCourses,
  pathSteps,
  type Course,
  type LearningPath,
  type User,
} from "../../db/tenant";
import type { ReminderServices } from "../../server/services";
import { isVisible } from "../access/courses";
import { isPathVisible } from "../access/paths";
import { viewerOfMember } from "../access/viewer";
import { daysBetween } from "../utils/calendar";
import { mailLanguage } from "./auth/mail.server";
import type { ReminderClaims, SentQueue } from "./reminder-claims.server";
import { personOf, type Candidate } from "./reminder-due.server";
import { composeReminder, type OpenState, type ReminderItem, type ReminderKind } from "./reminder-mail.server";
import { unsubscribeLink } from "./reminder-opt-outs.server";
import { fullName, type RunContext } from "./reminder-run.server";

/**
 * One person's reminders in a run (docs/decisions/038-reminders.md): the courses and learning paths due
 * claimed (those they may see), mailed together in one mail, and given back when the run stops before trying
 * them.
 */

/** One person's claimed reminders, each with what its mail says. */
export interface Claim {
  person: User;
  claimed: { id: number; attempts: number; item: ReminderItem }[];
  /** `skipped` rows this claim wrote (an assignment mail standing in for the day's reminder). */
  skipped: number[];
}

/** What claiming and mailing people's reminders needs for a whole run, read or prepared once. */
export interface PersonScope {
  run: RunContext;
  claims: ReminderClaims;
  sent: SentQueue;
  /** Each person's groups. */
  memberships: Map<number, { groupId: number; isAdmin: boolean }[]>;
  /** The organization as the access policy sees it from no one's request. */
  base: { organization: RunContext["organization"]; db: TenantDb; language: ReturnType<typeof mailLanguage> };
  courseOf: (id: number) => Course | null;
  pathOf: (id: number) => LearningPath | null;
  /** Whether the person has begun the course (any lesson), or any course of the path. */
  started: (userId: number, subject: Candidate["subject"], id: number) => boolean;
}

export function personScope(
  run: RunContext,
  claims: ReminderClaims,
  sent: SentQueue,
  memberships: PersonScope["memberships"],
): PersonScope {
  const { db, organization } = run;
  const known = new Map<number, Course | null>();
  const knownPaths = new Map<number, LearningPath | null>();
  // No LIMIT: `get` reads the first row only.
  const anyProgress = db
    .select({ one: sql<number>`1` })
    .from(lessonProgress)
    .where(and(eq(lessonProgress.userId, sql.placeholder("userId")), eq(lessonProgress.courseId, sql.placeholder("courseId"))))
    .prepare();
  const pathCourses = db
    .select({ courseId: pathStepCourses.courseId })
    .from(pathStepCourses)
    .innerJoin(pathSteps, eq(pathSteps.id, pathStepCourses.stepId))
    .where(eq(pathSteps.pathId, sql.placeholder("pathId")));
  const anyPathProgress = db
    .select({ one: sql<number>`1` })
    .from(lessonProgress)
    .where(and(eq(lessonProgress.userId, sql.placeholder("userId")), inArray(lessonProgress.courseId, pathCourses)))
    .prepare();
  return {
    run,
    claims,
    sent,
    memberships,
    base: { organization, db, language: mailLanguage({ language: null }, organization) },
    courseOf: (id) => {
      if (!known.has(id)) known.set(id, db.select().from(courses).where(eq(courses.id, id)).get() ?? null);
      return known.get(id)!;
    },
    pathOf: (id) => {
      if (!knownPaths.has(id)) knownPaths.set(id, db.select().from(learningPaths).where(eq(learningPaths.id, id)).get() ?? null);
      return knownPaths.get(id)!;
    },
    started: (userId, subject, id) =>
      (subject === "path" ? anyPathProgress.get({ userId, pathId: id }) : anyProgress.get({ userId, courseId: id })) !== undefined,
  };
}

/**
 * One person's reminders of this run, claimed (inside the chunk's transaction). Null: nothing to send,
 * because the courses are hidden from them (as on their "Due soon") or another run holds the keys.
 */
export function claimPerson(scope: PersonScope, rows: Candidate[]): Claim | null {
  const { run, claims, base } = scope;
  const userId = rows[0].userId;
  const person = personOf(userId, rows[0].person);
  const viewer = viewerOfMember(base, person, scope.memberships.get(userId) ?? []);
  const claim: Claim = { person, claimed: [], skipped: [] };
  for (const r of rows) {
    const title = visibleTitle(scope, viewer, r);
    if (title === null) continue;
    const kind: ReminderKind = r.assignedDue ? "assigned" : r.dayKind!;
    const key = { userId, subject: r.subject, assignmentId: r.assignmentId, dueOn: r.dueOn };
    const got = claims.claim({ ...key, kind, week: kind === "assigned" ? 0 : r.week }, run.at);
    if (!got) continue;
    // The assignment mail says what the day's reminder would have: that one is not sent as well.
    if (kind === "assigned" && r.dayKind && r.dayFree) {
      const skipped = claims.skip({ ...key, kind: r.dayKind, week: r.week }, run.at);
      if (skipped) claim.skipped.push(skipped.id);
    }
    const daysLeft = daysBetween(run.today, r.dueOn);
    const state: OpenState = daysLeft < 0 ? "overdue" : scope.started(userId, r.subject, r.itemId) ? "in_progress" : "not_started";
    const url = `${run.origin}/${r.subject === "path" ? "paths" : "courses"}/${r.itemId}`;
    claim.claimed.push({
      id: got.id,
      attempts: got.attempts,
      item: { kind, subject: r.subject, title, url, dueOn: r.dueOn, state, daysLeft },
    });
  }
  return claim.claimed.length ? claim : null;
}

/** The title of the candidate's course or path, or null when it is gone or the person may not see it. */
function visibleTitle(scope: PersonScope, viewer: ReturnType<typeof viewerOfMember>, r: Candidate): string | null {
  if (r.subject === "path") {
    const path = scope.pathOf(r.itemId);
    return path && isPathVisible(scope.base.db, viewer, path) ? path.title : null;
  }
  const course = scope.courseOf(r.itemId);
  return course && isVisible(scope.base.db, viewer, course) ? course.title : null;
}

/** A claim not tried (the run stops): as it was before, so a later run claims it again. In a transaction. */
export function giveBack(scope: PersonScope, claim: Claim) {
  for (const c of claim.claimed) scope.claims.giveBack(c.id, c.attempts, scope.run.at);
  for (const id of claim.skipped) scope.claims.unskip(id);
}

/** One person's mail for their claimed reminders; true when the mail server took it. */
export async function sendPerson(scope: PersonScope, services: ReminderServices, { person, claimed }: Claim) {
  const { organization, origin, at, db } = scope.run;
  const language = mailLanguage(person, organization);
  const t = await scope.run.translator(language);
  const unsubscribe = unsubscribeLink(services, origin, organization.id, person.id);
  const mail = composeReminder(t, {
    language,
    organization: organization.name,
    name: fullName(person),
    items: claimed.map((c) => c.item),
    unsubscribeUrl: unsubscribe.url,
    settingsUrl: `${origin}/profile/settings`,
  });
  try {
    await services.mailer.send({ to: person.email, ...mail, headers: unsubscribe.headers });
  } catch {
    db.$client.transaction(() => {
      for (const c of claimed) scope.claims.failed(c.id, c.attempts, at);
    })();
    return false;
  }
  // Recorded with the next claims (one commit for both): if the process stops before, these stay `sending`
  // and become `unknown`, which is never sent again either.
  scope.sent.add(claimed.map((c) => c.id));
  return true;
}
