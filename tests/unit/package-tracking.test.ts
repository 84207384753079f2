import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  lessonProgress,
  packageLaunches,
  packageRegistrations,
  xapiCredentials,
  xapiStatements,
  type XapiCredential,
  type ContentPackage,
  type Lesson,
} from "../../db/tenant";
import { CMI5_CATEGORY, CMI5_VERBS, MASTERY_SCORE, MOVE_ON_CATEGORY, SESSION_ID } from "~/models/packages/cmi5-rules";
import { fetchAuthToken, markPreferencesRead, startLaunch } from "~/models/packages/launches.server";
import { launchTracking } from "~/models/packages/tracking.server";
import { parseTincan } from "~/models/packages/tincan";
import { waiveAu } from "~/models/packages/waivers.server";
import { subscribeLearningEvents } from "~/models/subscribers.server";
import { authenticateXapi, createXapiCredential } from "~/models/xapi/credentials.server";
import type { Organization } from "../../db/platform";
import { storeStatements } from "~/models/xapi/statements.server";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { ESSENTIALS, ESSENTIALS_AU, packageLesson, packageRow } from "../helpers/packages";

subscribeLearningEvents();

/**
 * A package launch's statements tracked (issue 48; docs/decisions/044-xapi-cmi5-packages.md, 6 and 7), through
 * the statement store with the launches' hook as /xapi runs it, on a real tenant database: a cmi5 AU that
 * initializes, completes, passes and terminates satisfies its block and the course (the LMS's satisfied
 * statements) and completes the lesson; a statement that breaks cmi5's rules is refused with nothing stored;
 * an xAPI package's completed completes its lesson.
 */
const tenant = tenantDatabasePerTest("lectern-package-tracking-");
const ORIGIN = "https://acme.test";
const NOW = new Date("2026-11-29T10:00:00Z");
const CONTEXT = { origin: ORIGIN, contentBase: "https://1.scorm.test/p/t/", returnURL: `${ORIGIN}/`, now: NOW };
const COURSE = ESSENTIALS;
const AU_ID = ESSENTIALS_AU;

let lesson: Lesson;
let userId: number;
const packageOf = (kind: "cmi5" | "xapi", structure: unknown): ContentPackage => packageRow(tenant.db, lesson, kind, structure);

beforeEach(() => {
  ({ lesson, userId } = packageLesson(tenant.db));
});

/** A cmi5 launch with its credential fetched, and a sender of the AU's statements as /xapi stores them. */
function launchCmi5() {
  const started = startLaunch(tenant.db, { pkg: packageOf("cmi5", COURSE), lesson, userId }, CONTEXT);
  const url = new URL(started.url);
  const token = url.searchParams.get("fetch")!.split("/").pop()!;
  const auth = (fetchAuthToken(tenant.db, token, { origin: ORIGIN, now: NOW }) as { authToken: string }).authToken;
  const credential = authenticateXapi(tenant.db, `Basic ${auth}`, NOW)!;
  // The AU reads the learner's preferences as it starts (cmi5 §11), as /xapi records it.
  markPreferencesRead(tenant.db, credential.id, NOW);
  const actor = JSON.parse(url.searchParams.get("actor")!);
  const activityId = url.searchParams.get("activityId")!;
  const statement = (verb: keyof typeof CMI5_VERBS, result?: object, moveOn = false) => ({
    id: crypto.randomUUID(),
    timestamp: NOW.toISOString(),
    actor,
    verb: { id: CMI5_VERBS[verb] },
    object: { id: activityId },
    ...(result ? { result } : {}),
    context: {
      registration: started.registration.registration,
      contextActivities: { grouping: [{ id: AU_ID }], category: [{ id: CMI5_CATEGORY }, ...(moveOn ? [{ id: MOVE_ON_CATEGORY }] : [])] },
      extensions: { [SESSION_ID]: started.launch.sessionId, [MASTERY_SCORE]: 0.9 },
    },
  });
  const send = (s: object) =>
    storeStatements(tenant.db, credential, s, {
      version: "2.0.0",
      authority: { mbox: "mailto:au@acme.test" },
      launches: launchTracking(ORIGIN),
      now: NOW,
    });
  return { started, statement, send };
}
const verbsOf = (registration: string) =>
  tenant.db
    .select({ verb: xapiStatements.verbId })
    .from(xapiStatements)
    .where(eq(xapiStatements.registration, registration))
    .orderBy(xapiStatements.seq)
    .all()
    .map((r) => r.verb);
const completedLesson = () =>
  tenant.db.select().from(lessonProgress).where(eq(lessonProgress.lessonId, lesson.id)).get()?.completedAt ?? null;

describe("A cmi5 launch's statements", () => {
  it("complete and pass the AU, satisfy its block and the course, and complete the lesson", () => {
    const { started, statement, send } = launchCmi5();
    expect(send(statement("initialized"))).toMatchObject({ ok: true });
    expect(send(statement("completed", { completion: true, duration: "PT5M" }, true))).toMatchObject({ ok: true });
    expect(completedLesson()).toBeNull();
    expect(send(statement("passed", { success: true, score: { scaled: 0.95 }, duration: "PT6M" }, true))).toMatchObject({ ok: true });
    expect(completedLesson()).not.toBeNull();
    expect(send(statement("terminated", { duration: "PT7M" }))).toMatchObject({ ok: true });
    expect(verbsOf(started.registration.registration)).toEqual([
      CMI5_VERBS.launched,
      CMI5_VERBS.initialized,
      CMI5_VERBS.completed,
      CMI5_VERBS.passed,
      CMI5_VERBS.satisfied,
      CMI5_VERBS.satisfied,
      CMI5_VERBS.terminated,
    ]);
    expect(tenant.db.select().from(packageRegistrations).get()!.satisfiedAt).not.toBeNull();
    expect(tenant.db.select().from(packageLaunches).get()).toMatchObject({
      endedBy: "terminated",
      sent: ["initialized", "completed", "passed", "terminated"],
    });
    expect(send(statement("completed", { completion: true, duration: "PT1M" }, true))).toMatchObject({ ok: false, status: 403 });
    // The session is over, and its credential with it.
    expect(tenant.db.select().from(xapiCredentials).where(eq(xapiCredentials.scope, "actor")).get()!.revokedAt).not.toBeNull();
  });

  it("are the only way a package's lesson is completed: a plain completed about the lesson changes nothing", () => {
    packageOf("cmi5", COURSE);
    const reporter = createXapiCredential(tenant.db, { name: "reports", scope: "all", userId: null }) as { credential: XapiCredential };
    const plain = {
      actor: { objectType: "Agent", account: { homePage: ORIGIN, name: String(userId) } },
      verb: { id: CMI5_VERBS.completed },
      object: { id: `${ORIGIN}/courses/${lesson.courseId}/lessons/${lesson.id}` },
    };
    const feed = { origin: ORIGIN, organization: { id: 1, language: "en" } as Organization };
    expect(
      storeStatements(tenant.db, reporter.credential, plain, {
        version: "2.0.0",
        authority: { mbox: "mailto:r@acme.test" },
        learning: feed,
        now: NOW,
      }),
    ).toMatchObject({ ok: true });
    expect(completedLesson()).toBeNull();
  });

  it("refuse what breaks cmi5's rules, storing nothing of the batch", () => {
    const { started, statement, send } = launchCmi5();
    const refused = send([
      statement("initialized"),
      statement("passed", { success: true, score: { scaled: 0.5 }, duration: "PT1M" }, true),
    ]);
    expect(refused).toMatchObject({ ok: false, status: 403, message: expect.stringMatching(/mastery score/) });
    expect(verbsOf(started.registration.registration)).toEqual([CMI5_VERBS.launched]);
    expect(send(statement("completed", { completion: true, duration: "PT1M" }, true))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/initialized/),
    });
    expect(completedLesson()).toBeNull();
  });
});

describe("An xAPI package launch's statements", () => {
  it("complete the lesson with completed about the activity it was launched as", () => {
    const tincan = parseTincan(
      `<tincan><activities><activity id="https://example.test/course" type="http://adlnet.gov/expapi/activities/course"><name>C</name><launch>story.html</launch></activity></activities></tincan>`,
    );
    const { url } = startLaunch(tenant.db, { pkg: packageOf("xapi", tincan), lesson, userId }, CONTEXT);
    const address = new URL(url);
    const credential = authenticateXapi(tenant.db, address.searchParams.get("auth"), NOW)!;
    const actor = JSON.parse(address.searchParams.get("actor")!);
    const send = (objectId: string) =>
      storeStatements(
        tenant.db,
        credential,
        {
          actor,
          verb: { id: CMI5_VERBS.completed },
          object: { id: objectId },
          context: { registration: address.searchParams.get("registration") },
        },
        { version: "1.0.3", authority: { mbox: "mailto:au@acme.test" }, launches: launchTracking(ORIGIN), now: NOW },
      );
    expect(send("https://example.test/course/slide-3")).toMatchObject({ ok: true });
    expect(completedLesson()).toBeNull();
    expect(send("https://example.test/course")).toMatchObject({ ok: true });
    expect(completedLesson()).not.toBeNull();
  });
});

describe("Waiving an AU", () => {
  it("writes waived with its reason once, and satisfies what the AU was missing, completing the lesson", () => {
    const pkg = packageOf("cmi5", COURSE);
    const waive = () => waiveAu(tenant.db, { pkg, lesson, userId, auId: AU_ID, reason: "Administrative", origin: ORIGIN, now: NOW });
    expect(waive()).toEqual({ ok: true });
    expect(waive()).toEqual({ ok: false, problem: "already" });
    expect(waiveAu(tenant.db, { pkg, lesson, userId, auId: "https://nowhere.test/au", reason: "x", origin: ORIGIN })).toEqual({
      ok: false,
      problem: "no_au",
    });
    const registration = tenant.db.select().from(packageRegistrations).get()!;
    expect(verbsOf(registration.registration)).toEqual([CMI5_VERBS.waived, CMI5_VERBS.satisfied, CMI5_VERBS.satisfied]);
    expect(completedLesson()).not.toBeNull();
  });
});
