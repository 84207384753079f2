import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import {
  packageLaunches,
  packageRegistrations,
  type ContentPackage,
  type Lesson,
  type PackageLaunch,
  type PackageRegistration,
} from "../../../db/tenant";
import { hashToken, randomToken } from "../auth/secrets.server";
import { createXapiCredential, revokeXapiCredential } from "../xapi/credentials.server";
import { writeDocument } from "../xapi/documents.server";
import { agentKey } from "../xapi/agents";
import { storeStatements } from "../xapi/statements.server";
import { learnerAgent } from "../xapi/lesson-results.server";
import { aus, type Cmi5Course } from "./cmi5-structure";
import type { LaunchMode } from "./cmi5-rules";
import type { TincanPackage } from "./tincan";
import { abandonedStatement, cmi5LaunchUrl, launchData, launchedStatement, tincanLaunchUrl, type LmsStatementOf } from "./launch-data";
import { lmsAuthority, lmsCredential } from "./lms-credential.server";
import { lmsIds, openRegistration } from "./registrations.server";
import { evaluateSatisfaction } from "./satisfaction.server";

/*
 * Launching a package lesson (docs/decisions/044-xapi-cmi5-packages.md, 5 and 6). A launch belongs to the
 * learner's open registration; launching again abandons the launch before it when that never terminated
 * (cmi5 §9.3.6). A cmi5 AU gets `LMS.LaunchData` and the LMS's `launched` statement before it opens, and a
 * one-use fetch address that makes its credential when the AU asks for it (§8.2); an xAPI package gets its
 * credential on its launch address. Either credential may only send and read the learner's statements of
 * that registration, and ends with the launch.
 */

/** How long a launch's credential lives: a working day. */
export const LAUNCH_HOURS = 8;
/** How long after its launch a cmi5 AU may fetch its token (§8.2: the AU fetches it as it starts). */
export const FETCH_MINUTES = 30;

export interface LaunchContext {
  /** The organization's origin (`https://acme.example`): the LRS is at `<origin>/xapi/`. */
  origin: string;
  /** Where the package's files are served from on the content origin, ending in `/`. */
  contentBase: string;
  /** Where the learner returns when the AU exits. */
  returnURL: string;
  now?: Date;
}

export type Started = { launch: PackageLaunch; registration: PackageRegistration; url: string };

/** The launch of `auId` in a registration that is still running (not terminated or abandoned), if any. */
function runningLaunch(db: TenantConn, registrationId: number) {
  return db
    .select()
    .from(packageLaunches)
    .where(and(eq(packageLaunches.registrationId, registrationId), isNull(packageLaunches.endedAt)))
    .all();
}

/** Ends a launch that never terminated: `abandoned` (cmi5) with the time it lasted, its credential revoked. */
export function abandonLaunch(
  db: TenantConn,
  launch: PackageLaunch,
  of: Omit<LmsStatementOf, "sessionId" | "timestamp">,
  cmi5: boolean,
  now: Date,
) {
  const last = launch.lastStatementAt ?? launch.launchedAt;
  if (cmi5)
    storeStatements(
      db,
      lmsCredential(db, now),
      abandonedStatement({ ...of, sessionId: launch.sessionId, timestamp: now }, last.getTime() - launch.launchedAt.getTime()),
      {
        version: "2.0.0",
        authority: lmsAuthority((of.actor.account as { homePage: string }).homePage),
        now,
      },
    );
  db.update(packageLaunches).set({ endedAt: now, endedBy: "abandoned" }).where(eq(packageLaunches.id, launch.id)).run();
  if (launch.credentialId) revokeXapiCredential(db, launch.credentialId, now);
}

export function startLaunch(
  db: TenantConn,
  {
    pkg,
    lesson,
    userId,
    auId,
    launchMode = "Normal",
    fresh = false,
  }: { pkg: ContentPackage; lesson: Lesson; userId: number; auId?: string; launchMode?: LaunchMode; fresh?: boolean },
  context: LaunchContext,
): Started {
  const now = context.now ?? new Date();
  return db.transaction((tx) => {
    const actor = learnerAgent(context.origin, { id: userId });
    const ids = lmsIds(context.origin, lesson);
    const cmi5 = pkg.kind === "cmi5";
    // Launches still running in the open registration are abandoned first, a retake's included (cmi5 §9.3.6).
    const open = openRegistration(tx, { lessonId: lesson.id, userId, now });
    for (const running of runningLaunch(tx, open.id))
      abandonLaunch(
        tx,
        running,
        { actor, registration: open.registration, au: { id: running.auId }, activityId: cmi5 ? ids.au(running.auId) : running.auId },
        cmi5,
        now,
      );
    const registration = fresh ? openRegistration(tx, { lessonId: lesson.id, userId, fresh, now }) : open;
    const sessionId = crypto.randomUUID();
    if (!cmi5)
      return startTincan(tx, { pkg: pkg.structure as TincanPackage, lesson, registration, actor, sessionId, launchMode }, context, now);
    const course = pkg.structure as Cmi5Course;
    const au = aus(course.children).find((a) => a.id === (auId ?? aus(course.children)[0].id));
    if (!au) throw new Error(`no AU ${auId} in the package`);
    const activityId = ids.au(au.id);
    const fetchToken = randomToken();
    const auUrl = /^[a-z][a-z0-9+.-]*:/i.test(au.url) ? au.url : `${context.contentBase}${au.url}`;
    const url = cmi5LaunchUrl({
      url: auUrl,
      endpoint: `${context.origin}/xapi/`,
      fetch: `${context.origin}/xapi/fetch/${fetchToken}`,
      actor,
      registration: registration.registration,
      activityId,
    });
    const state = launchData(au, { sessionId, launchMode, returnURL: context.returnURL });
    writeDocument(
      tx,
      { kind: "state", activityId, agentKey: agentKey(actor)!, registration: registration.registration, documentId: "LMS.LaunchData" },
      { contentType: "application/json", body: Buffer.from(JSON.stringify(state)) },
      { method: "PUT", requirePrecondition: "never", now },
    );
    // moveOn is evaluated as the registration is made, before the AU's launch (§9.6.1.1): NotApplicable AUs, and
    // the blocks and course they alone make up, are satisfied from the start.
    evaluateSatisfaction(tx, { registration, course, origin: context.origin, sessionId, auId: au.id }, now);
    const of = { actor, registration: registration.registration, sessionId, au, activityId, timestamp: now };
    const stored = storeStatements(tx, lmsCredential(tx, now), launchedStatement(of, au, { launchMode, launchUrl: auUrl }), {
      version: "2.0.0",
      authority: lmsAuthority(context.origin),
      now,
    });
    if (!stored.ok) throw new Error(`the launched statement was refused: ${stored.message}`);
    const launch = tx
      .insert(packageLaunches)
      .values({
        registrationId: registration.id,
        auId: au.id,
        sessionId,
        launchMode,
        fetchTokenHash: hashToken(fetchToken),
        launchedAt: now,
      })
      .returning()
      .get();
    const current = tx.select().from(packageRegistrations).where(eq(packageRegistrations.id, registration.id)).get()!;
    return { launch, registration: current, url };
  });
}

function startTincan(
  tx: TenantConn,
  {
    pkg,
    lesson,
    registration,
    actor,
    sessionId,
    launchMode,
  }: {
    pkg: TincanPackage;
    lesson: Lesson;
    registration: PackageRegistration;
    actor: Record<string, unknown>;
    sessionId: string;
    launchMode: LaunchMode;
  },
  context: LaunchContext,
  now: Date,
): Started {
  const made = createXapiCredential(tx, {
    name: `Launch of ${lesson.title}`.slice(0, 100),
    scope: "actor",
    actor,
    registration: registration.registration,
    userId: null,
    notAfter: new Date(now.getTime() + LAUNCH_HOURS * 3_600_000),
    purpose: "launch",
    now,
  });
  if ("error" in made) throw new Error(made.error);
  const launch = tx
    .insert(packageLaunches)
    .values({
      registrationId: registration.id,
      auId: pkg.launch.id,
      sessionId,
      launchMode,
      credentialId: made.credential.id,
      launchedAt: now,
    })
    .returning()
    .get();
  const url = tincanLaunchUrl({
    url: `${context.contentBase}${pkg.launch.launch}`,
    endpoint: `${context.origin}/xapi/`,
    key: made.key,
    secret: made.secret,
    actor,
    registration: registration.registration,
    activityId: pkg.launch.id,
  });
  return { launch, registration, url };
}

/** A launch by its session id, with its registration, for an admin who ends it (abandoned) by hand. */
export function findSession(db: TenantConn, sessionId: string) {
  return db
    .select({ launch: packageLaunches, registration: packageRegistrations })
    .from(packageLaunches)
    .innerJoin(packageRegistrations, eq(packageRegistrations.id, packageLaunches.registrationId))
    .where(eq(packageLaunches.sessionId, sessionId.toLowerCase()))
    .get();
}

/**
 * Ends a running launch by hand (an admin, or ADL's test suite through /api): `abandoned`, as the next launch
 * would. False when it had ended already.
 */
export function abandonSession(
  db: TenantConn,
  found: NonNullable<ReturnType<typeof findSession>>,
  { pkg, lesson, origin, now = new Date() }: { pkg: ContentPackage; lesson: Lesson; origin: string; now?: Date },
): boolean {
  if (found.launch.endedAt) return false;
  const cmi5 = pkg.kind === "cmi5";
  const actor = learnerAgent(origin, { id: found.registration.userId });
  const activityId = cmi5 ? lmsIds(origin, lesson).au(found.launch.auId) : found.launch.auId;
  db.transaction((tx) =>
    abandonLaunch(
      tx,
      found.launch,
      { actor, registration: found.registration.registration, au: { id: found.launch.auId }, activityId },
      cmi5,
      now,
    ),
  );
  return true;
}

/** The agent profile document a cmi5 AU reads as it starts (cmi5 §11). */
export const LEARNER_PREFERENCES = "cmi5LearnerPreferences";

const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

/**
 * Why a learner's preferences an AU writes are not cmi5's (§11): a JSON object with `languagePreference`, a
 * comma-separated list of RFC 5646 language tags, and `audioPreference`, "on" or "off"; or null.
 */
export function learnerPreferencesProblem(contentType: string, body: Buffer): string | null {
  if (!/^application\/json\b/i.test(contentType)) return "The learner's preferences are a JSON document.";
  let value: unknown;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch {
    return "The learner's preferences are a JSON document.";
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return "The learner's preferences are a JSON object.";
  const { languagePreference, audioPreference } = value as Record<string, unknown>;
  if (typeof languagePreference !== "string" || !languagePreference.split(",").every((tag) => LANGUAGE_TAG.test(tag)))
    return "languagePreference is a comma-separated list of language tags.";
  if (audioPreference !== "on" && audioPreference !== "off") return 'audioPreference is "on" or "off".';
  return null;
}

/** The launch whose credential asked for the learner's preferences has read them (its initialized may follow). */
export function markPreferencesRead(db: TenantConn, credentialId: number, now = new Date()) {
  db.update(packageLaunches)
    .set({ preferencesReadAt: now })
    .where(and(eq(packageLaunches.credentialId, credentialId), isNull(packageLaunches.preferencesReadAt)))
    .run();
}

export type Fetched = { ok: true; authToken: string } | { ok: false; code: "1" | "2"; text: string };

/**
 * The one-use fetch of a cmi5 launch (§8.2): the first call makes the launch's credential and answers its token;
 * any later call is error 1 (already returned), a token of no running launch error 2.
 */
export function fetchAuthToken(db: TenantConn, token: string, { origin, now = new Date() }: { origin: string; now?: Date }): Fetched {
  return db.transaction((tx) => {
    const found = tx
      .select({ launch: packageLaunches, registration: packageRegistrations })
      .from(packageLaunches)
      .innerJoin(packageRegistrations, eq(packageRegistrations.id, packageLaunches.registrationId))
      .where(eq(packageLaunches.fetchTokenHash, hashToken(token)))
      .get();
    if (!found || found.launch.endedAt || now.getTime() - found.launch.launchedAt.getTime() > FETCH_MINUTES * 60_000)
      return { ok: false, code: "2", text: "This launch is not known, has ended or was not started here just now." };
    if (found.launch.fetchedAt) return { ok: false, code: "1", text: "The authorization token has already been returned." };
    const made = createXapiCredential(tx, {
      name: "cmi5 launch",
      scope: "actor",
      actor: learnerAgent(origin, { id: found.registration.userId }),
      registration: found.registration.registration,
      userId: null,
      notAfter: new Date(now.getTime() + LAUNCH_HOURS * 3_600_000),
      purpose: "launch",
      now,
    });
    if ("error" in made) throw new Error(made.error);
    tx.update(packageLaunches)
      .set({ fetchedAt: now, credentialId: made.credential.id })
      .where(eq(packageLaunches.id, found.launch.id))
      .run();
    return { ok: true, authToken: Buffer.from(`${made.key}:${made.secret}`).toString("base64") };
  });
}
