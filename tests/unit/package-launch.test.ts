import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { contentPackages, packageLaunches, packageRegistrations, xapiStatements, type ContentPackage, type Lesson } from "../../db/tenant";
import { parseCourseStructure } from "~/models/packages/cmi5-structure";
import { CMI5_VERBS, SESSION_ID } from "~/models/packages/cmi5-rules";
import { fetchAuthToken, startLaunch } from "~/models/packages/launches.server";
import { lmsIds } from "~/models/packages/registrations.server";
import { parseTincan } from "~/models/packages/tincan";
import { authenticateXapi } from "~/models/xapi/credentials.server";
import { getDocument } from "~/models/xapi/documents.server";
import { subscribeLearningEvents } from "~/models/subscribers.server";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { ESSENTIALS, ESSENTIALS_AU, packageLesson, packageRow } from "../helpers/packages";

// A launch may complete a lesson (a course of NotApplicable AUs): what reacts to that subscribes, as the server does.
subscribeLearningEvents();

/**
 * Launching a package lesson (issue 48; docs/decisions/044-xapi-cmi5-packages.md, 5 and 6), on a real tenant
 * database: a cmi5 AU gets LMS.LaunchData and the LMS's launched statement before it opens and a one-use fetch
 * that makes a credential bound to the learner and registration; launching again abandons a launch that never
 * terminated; a retake opens a new registration; an xAPI package gets its credential on its address.
 */
const tenant = tenantDatabasePerTest("lectern-package-launch-");
const ORIGIN = "https://acme.test";
const CONTEXT = {
  origin: ORIGIN,
  contentBase: "https://1.scorm.test/p/token/",
  returnURL: `${ORIGIN}/courses/1/lessons/1`,
  now: new Date("2026-11-29T10:00:00Z"),
};
const COURSE = ESSENTIALS;
const AU_ID = ESSENTIALS_AU;

let lesson: Lesson;
let userId: number;
let cmi5: ContentPackage;

const packageOf = (kind: "cmi5" | "xapi", structure: unknown): ContentPackage => packageRow(tenant.db, lesson, kind, structure);
beforeEach(() => {
  ({ lesson, userId } = packageLesson(tenant.db));
  cmi5 = packageOf("cmi5", COURSE);
});
const statementsOf = (registration: string) =>
  tenant.db
    .select({ verb: xapiStatements.verbId, json: xapiStatements.json })
    .from(xapiStatements)
    .where(eq(xapiStatements.registration, registration))
    .orderBy(xapiStatements.seq)
    .all();

describe("A cmi5 launch", () => {
  it("writes LMS.LaunchData and launched, then opens the AU with its five parameters", () => {
    const { url, registration, launch } = startLaunch(tenant.db, { pkg: cmi5, lesson, userId }, CONTEXT);
    const address = new URL(url);
    expect(address.origin + address.pathname).toBe("https://1.scorm.test/p/token/index.html");
    const activityId = address.searchParams.get("activityId")!;
    expect(activityId).toBe(lmsIds(ORIGIN, lesson).au(AU_ID));
    expect(activityId).not.toBe(AU_ID);
    expect(JSON.parse(address.searchParams.get("actor")!)).toEqual({
      objectType: "Agent",
      account: { homePage: ORIGIN, name: String(userId) },
    });
    expect(address.searchParams.get("registration")).toBe(registration.registration);
    expect(address.searchParams.get("fetch")).toMatch(new RegExp(`^${ORIGIN}/xapi/fetch/`));
    const state = getDocument(tenant.db, {
      kind: "state",
      activityId,
      agentKey: `account:${ORIGIN}|${userId}`,
      registration: registration.registration,
      documentId: "LMS.LaunchData",
    });
    expect(JSON.parse(state!.body.toString())).toMatchObject({
      launchMode: "Normal",
      moveOn: "CompletedAndPassed",
      masteryScore: 0.9,
      contextTemplate: { extensions: { [SESSION_ID]: launch.sessionId } },
    });
    const stored = statementsOf(registration.registration);
    expect(stored.map((s) => s.verb)).toEqual([CMI5_VERBS.launched]);
    expect(JSON.parse(stored[0].json).object.id).toBe(activityId);
    // cmi5 §9.6.3.4: the launch address without its launch parameters (the fetch token is nobody else's).
    const launchUrl = JSON.parse(stored[0].json).context.extensions["https://w3id.org/xapi/cmi5/context/extensions/launchurl"];
    expect(launchUrl).toBe("https://1.scorm.test/p/token/index.html?paramA=1&paramB=2");
  });

  it("hands its credential out once through the fetch address, bound to the learner and registration", () => {
    const { url, registration } = startLaunch(tenant.db, { pkg: cmi5, lesson, userId }, CONTEXT);
    const token = new URL(url).searchParams.get("fetch")!.split("/").pop()!;
    const first = fetchAuthToken(tenant.db, token, { origin: ORIGIN, now: CONTEXT.now });
    expect(first.ok).toBe(true);
    const credential = authenticateXapi(tenant.db, `Basic ${(first as { authToken: string }).authToken}`, CONTEXT.now);
    expect(credential).toMatchObject({ scope: "actor", actorKey: `account:${ORIGIN}|${userId}`, registration: registration.registration });
    expect(fetchAuthToken(tenant.db, token, { origin: ORIGIN, now: CONTEXT.now })).toMatchObject({ ok: false, code: "1" });
    expect(fetchAuthToken(tenant.db, "not-a-token", { origin: ORIGIN })).toMatchObject({ ok: false, code: "2" });
    // Not fetched within half an hour of its launch: the token is worth nothing.
    const late = startLaunch(tenant.db, { pkg: cmi5, lesson, userId }, CONTEXT);
    const lateToken = new URL(late.url).searchParams.get("fetch")!.split("/").pop()!;
    expect(fetchAuthToken(tenant.db, lateToken, { origin: ORIGIN, now: new Date(CONTEXT.now.getTime() + 31 * 60_000) })).toMatchObject({
      ok: false,
      code: "2",
    });
  });

  it("abandons a launch that never terminated when the AU is launched again, and ends its credential", () => {
    const first = startLaunch(tenant.db, { pkg: cmi5, lesson, userId }, CONTEXT);
    const token = new URL(first.url).searchParams.get("fetch")!.split("/").pop()!;
    const auth = `Basic ${(fetchAuthToken(tenant.db, token, { origin: ORIGIN, now: CONTEXT.now }) as { authToken: string }).authToken}`;
    const later = new Date(CONTEXT.now.getTime() + 60_000);
    const second = startLaunch(tenant.db, { pkg: cmi5, lesson, userId }, { ...CONTEXT, now: later });
    expect(second.registration.id).toBe(first.registration.id);
    expect(second.launch.sessionId).not.toBe(first.launch.sessionId);
    const verbs = statementsOf(first.registration.registration).map((s) => s.verb);
    expect(verbs).toEqual([CMI5_VERBS.launched, CMI5_VERBS.abandoned, CMI5_VERBS.launched]);
    expect(tenant.db.select().from(packageLaunches).where(eq(packageLaunches.id, first.launch.id)).get()).toMatchObject({
      endedBy: "abandoned",
    });
    expect(authenticateXapi(tenant.db, auth, later)).toBeNull();
  });

  it("opens a new registration for a retake and keeps the old one", () => {
    const first = startLaunch(tenant.db, { pkg: cmi5, lesson, userId }, CONTEXT);
    const retake = startLaunch(tenant.db, { pkg: cmi5, lesson, userId, fresh: true }, CONTEXT);
    expect(retake.registration.registration).not.toBe(first.registration.registration);
    const rows = tenant.db.select().from(packageRegistrations).all();
    expect(rows.map((r) => r.closedAt !== null)).toEqual([true, false]);
    // The old registration's launch, still running, was abandoned rather than left open.
    expect(tenant.db.select().from(packageLaunches).where(eq(packageLaunches.id, first.launch.id)).get()).toMatchObject({
      endedBy: "abandoned",
    });
  });

  it("satisfies a course whose AUs are all NotApplicable as the registration is used, and completes the lesson", () => {
    const open = parseCourseStructure(
      fs
        .readFileSync(path.join(__dirname, "..", "fixtures", "cmi5", "001-essentials.cmi5.xml"), "utf8")
        .replace('moveOn="CompletedAndPassed"', 'moveOn="NotApplicable"'),
      { inPackage: true },
    );
    tenant.db.delete(contentPackages).run();
    const { registration } = startLaunch(tenant.db, { pkg: packageOf("cmi5", open), lesson, userId }, CONTEXT);
    expect(registration.satisfiedAt).not.toBeNull();
    // Satisfied as the registration is made, before the AU's launch (§9.6.1.1; CATAPULT's 004-5 checks the order).
    expect(statementsOf(registration.registration).map((s) => s.verb)).toEqual([
      CMI5_VERBS.satisfied,
      CMI5_VERBS.satisfied,
      CMI5_VERBS.launched,
    ]);
  });
});

describe("An xAPI package launch", () => {
  it("puts a credential for the learner and registration on the launch address", () => {
    const tincan = parseTincan(
      `<tincan><activities><activity id="https://example.test/course" type="http://adlnet.gov/expapi/activities/course"><name>C</name><launch>story.html</launch></activity></activities></tincan>`,
    );
    tenant.db.delete(contentPackages).run();
    const { url, registration } = startLaunch(tenant.db, { pkg: packageOf("xapi", tincan), lesson, userId }, CONTEXT);
    const address = new URL(url);
    expect(address.pathname).toBe("/p/token/story.html");
    expect(address.searchParams.get("activity_id")).toBe("https://example.test/course");
    const credential = authenticateXapi(tenant.db, address.searchParams.get("auth"), CONTEXT.now);
    expect(credential).toMatchObject({ scope: "actor", registration: registration.registration });
  });
});
