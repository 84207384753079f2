import { eq, sql } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { preparedOnce } from "../../../db/prepared";
import { cmi5AuStates, contentPackages, lessons, packageLaunches, packageRegistrations } from "../../../db/tenant";
import { completeLesson } from "../learning.server";
import type { StatementHook } from "../xapi/statements.server";
import { revokeXapiCredential } from "../xapi/credentials.server";
import { aus, type Cmi5Course } from "./cmi5-structure";
import { afterStatement, CMI5_CATEGORY, CMI5_VERBS, cmi5Refusal, type Cmi5Session, type Cmi5Verb } from "./cmi5-rules";
import { auStates, evaluateSatisfaction } from "./satisfaction.server";
import { lmsIds } from "./registrations.server";
import type { TincanPackage } from "./tincan";

/*
 * What the statements of a package's launch answer to beyond the LRS's own rules (docs/decisions/
 * 044-xapi-cmi5-packages.md, 6 and 7), as a hook of the statement store: a cmi5 AU's statements are checked by
 * cmi5's session rules and refused when they break one; once stored they move the launch (its verbs, its end),
 * the AU's state in the registration and, through satisfaction.server.ts, the blocks, the course and the
 * lesson. An xAPI package's `completed` or `passed` about the activity it was launched as completes its lesson.
 */

type Json = Record<string, unknown>;

/**
 * The launch a credential was made for, with its registration and package, or null. Asked for every statement a
 * credential sends, twice (its check, then its record): built once per connection (db/prepared.ts).
 */
function launchOf(tx: TenantConn, credentialId: number) {
  const query = preparedOnce(tx, "packages.launchOf", () =>
    tx
      .select({ launch: packageLaunches, registration: packageRegistrations, pkg: contentPackages })
      .from(packageLaunches)
      .innerJoin(packageRegistrations, eq(packageRegistrations.id, packageLaunches.registrationId))
      .innerJoin(contentPackages, eq(contentPackages.lessonId, packageRegistrations.lessonId))
      .where(eq(packageLaunches.credentialId, sql.placeholder("credentialId")))
      .prepare(),
  );
  return query.get({ credentialId }) ?? null;
}
type Found = NonNullable<ReturnType<typeof launchOf>>;

function sessionOf(tx: TenantConn, { launch, registration, pkg }: Found, origin: string): Cmi5Session | null {
  const au = aus((pkg.structure as Cmi5Course).children).find((a) => a.id === launch.auId);
  const lesson = preparedOnce(tx, "packages.sessionLesson", () =>
    tx
      .select({ id: lessons.id, courseId: lessons.courseId })
      .from(lessons)
      .where(eq(lessons.id, sql.placeholder("id")))
      .prepare(),
  ).get({ id: registration.lessonId });
  if (!au || !lesson) return null;
  const state = auStates(tx, registration.id).get(au.id);
  return {
    sessionId: launch.sessionId,
    registration: registration.registration,
    activityId: lmsIds(origin, lesson).au(au.id),
    publisherId: au.id,
    launchMode: launch.launchMode,
    masteryScore: au.masteryScore,
    moveOn: au.moveOn,
    sent: launch.sent as Cmi5Verb[],
    ended: launch.endedAt !== null,
    registrationHas: { completed: !!state?.completed, passed: !!state?.passed },
    preferencesRead: launch.preferencesReadAt !== null,
  };
}

const verbOf = (statement: Json) => String((statement.verb as Json | undefined)?.id ?? "");
const scaledOf = (statement: Json) => {
  const scaled = ((statement.result as Json | undefined)?.score as Json | undefined)?.scaled;
  return typeof scaled === "number" ? scaled : null;
};

/** After a cmi5 AU's statement: the launch's verbs and end, the AU's state, and what is now satisfied. */
function recordCmi5(tx: TenantConn, found: Found, statement: Json, origin: string, now: Date) {
  const session = sessionOf(tx, found, origin);
  if (!session) return;
  const next = afterStatement(statement, session);
  tx.update(packageLaunches)
    .set({
      sent: next.sent,
      lastStatementAt: now,
      ...(next.ended && !session.ended ? { endedAt: now, endedBy: "terminated" as const } : {}),
    })
    .where(eq(packageLaunches.id, found.launch.id))
    .run();
  // The session is over: its credential too (§8.2: the token lasts the session).
  if (next.ended && !session.ended && found.launch.credentialId) revokeXapiCredential(tx, found.launch.credentialId, now);
  const categories = (((statement.context as Json | undefined)?.contextActivities as Json | undefined)?.category ?? []) as Json[];
  if (!categories.some((c) => c.id === CMI5_CATEGORY)) return;
  const verb = verbOf(statement);
  const judged = verb === CMI5_VERBS.passed || verb === CMI5_VERBS.failed;
  if (verb !== CMI5_VERBS.completed && !judged) return;
  const set = {
    ...(verb === CMI5_VERBS.completed ? { completed: true } : {}),
    ...(verb === CMI5_VERBS.passed ? { passed: true } : {}),
    ...(verb === CMI5_VERBS.failed ? { failed: true } : {}),
    ...(judged && scaledOf(statement) !== null ? { score: scaledOf(statement) } : {}),
  };
  tx.insert(cmi5AuStates)
    .values({ registrationId: found.registration.id, auId: found.launch.auId, ...set })
    .onConflictDoUpdate({ target: [cmi5AuStates.registrationId, cmi5AuStates.auId], set })
    .run();
  evaluateSatisfaction(
    tx,
    {
      registration: found.registration,
      course: found.pkg.structure as Cmi5Course,
      origin,
      sessionId: found.launch.sessionId,
      auId: found.launch.auId,
    },
    now,
  );
}

/** After an xAPI package's statement: `completed` or `passed` about its launch activity completes the lesson, once. */
function recordTincan(tx: TenantConn, { launch, registration, pkg }: Found, statement: Json, now: Date) {
  tx.update(packageLaunches).set({ lastStatementAt: now }).where(eq(packageLaunches.id, launch.id)).run();
  const verb = verbOf(statement);
  if (verb !== CMI5_VERBS.completed && verb !== CMI5_VERBS.passed) return;
  if ((statement.object as Json | undefined)?.id !== (pkg.structure as TincanPackage).launch.id || registration.satisfiedAt) return;
  tx.update(packageRegistrations).set({ satisfiedAt: now }).where(eq(packageRegistrations.id, registration.id)).run();
  const lesson = tx.select().from(lessons).where(eq(lessons.id, registration.lessonId)).get();
  if (lesson) completeLesson(tx, { userId: registration.userId, lesson, now });
}

/** The hook for the statements of the organization at `origin` (its LRS's address is `<origin>/xapi/`). */
export function launchTracking(origin: string): StatementHook {
  // A credential found to be no launch's is not looked up again for the rest of the request (most are not).
  const notLaunches = new Set<number>();
  const launchFor = (tx: TenantConn, credentialId: number) => {
    if (notLaunches.has(credentialId)) return null;
    const found = launchOf(tx, credentialId);
    if (!found) notLaunches.add(credentialId);
    return found;
  };
  return {
    check(tx, credential, statements) {
      const found = launchFor(tx, credential.id);
      if (!found) return null;
      if (found.launch.endedAt) return "The launch has ended: no statement is taken for it.";
      if (found.pkg.kind !== "cmi5") return null;
      let session = sessionOf(tx, found, origin);
      if (!session) return "The AU of this launch is no longer in its package.";
      for (const statement of statements) {
        const refusal = cmi5Refusal(statement, session);
        if (refusal) return refusal;
        session = afterStatement(statement, session);
      }
      return null;
    },
    stored(tx, credential, statement, stored) {
      const found = launchFor(tx, credential.id);
      if (!found) return;
      if (found.pkg.kind === "cmi5") recordCmi5(tx, found, statement, origin, stored);
      else recordTincan(tx, found, statement, stored);
    },
  };
}
