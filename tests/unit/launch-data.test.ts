import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aus, parseCourseStructure } from "~/models/packages/cmi5-structure";
import { CMI5_CATEGORY, MOVE_ON_CATEGORY, SESSION_ID } from "~/models/packages/cmi5-rules";
import {
  abandonedStatement,
  cmi5LaunchUrl,
  COURSE_TYPE,
  isoDuration,
  LAUNCH_MODE,
  launchData,
  launchedStatement,
  REASON,
  satisfiedStatement,
  tincanLaunchUrl,
  waivedStatement,
} from "~/models/packages/launch-data";
import { statement as statementSchema } from "~/models/xapi/statement-schema";

/**
 * What the LMS hands an AU and writes for it (issue 48; cmi5 §8.1, §9.3, §10): launch addresses with their
 * parameters URL-encoded beside the AU's own, the LMS.LaunchData document from the course structure, and the
 * LMS's statements, each a valid xAPI statement with the session's context template.
 */
const AU = aus(
  parseCourseStructure(fs.readFileSync(path.join(__dirname, "..", "fixtures", "cmi5", "001-essentials.cmi5.xml"), "utf8"), {
    inPackage: true,
  }).children,
)[0];
const ACTOR = { objectType: "Agent", account: { homePage: "https://acme.test", name: "7" } };
const REGISTRATION = "0f9a9d0c-5a0e-4c1f-9a57-7c7d1f1f0a11";
const OF = {
  actor: ACTOR,
  registration: REGISTRATION,
  sessionId: "s-1",
  au: AU,
  activityId: "https://acme.test/lms/au/7",
  timestamp: new Date("2026-11-29T10:00:00Z"),
};

describe("Launching", () => {
  it("gives a cmi5 AU its five parameters, URL-encoded, after its own", () => {
    const url = new URL(
      cmi5LaunchUrl({
        url: `https://7.scorm.test/p/t/${AU.url}`,
        endpoint: "https://acme.test/xapi/",
        fetch: "https://acme.test/fetch/abc",
        actor: ACTOR,
        registration: REGISTRATION,
        activityId: OF.activityId,
      }),
    );
    expect(url.searchParams.get("paramA")).toBe("1");
    expect(url.searchParams.get("paramB")).toBe("2");
    expect(JSON.parse(url.searchParams.get("actor")!)).toEqual(ACTOR);
    expect(url.searchParams.get("endpoint")).toBe("https://acme.test/xapi/");
    expect(url.searchParams.get("fetch")).toBe("https://acme.test/fetch/abc");
    expect(url.searchParams.get("registration")).toBe(REGISTRATION);
    expect(url.searchParams.get("activityId")).toBe(OF.activityId);
  });

  it("gives an xAPI package its endpoint, Basic auth, actor, registration and activity_id", () => {
    const url = new URL(
      tincanLaunchUrl({
        url: "https://7.scorm.test/p/t/story.html",
        endpoint: "https://acme.test/xapi/",
        key: "k",
        secret: "s",
        actor: ACTOR,
        registration: REGISTRATION,
        activityId: "https://example.test/course",
      }),
    );
    expect(url.searchParams.get("auth")).toBe(`Basic ${Buffer.from("k:s").toString("base64")}`);
    expect(url.searchParams.get("activity_id")).toBe("https://example.test/course");
  });

  it("writes LMS.LaunchData from the course structure", () => {
    expect(launchData(AU, { sessionId: "s-1", launchMode: "Normal", returnURL: "https://acme.test/courses/1/lessons/2" })).toEqual({
      contextTemplate: { contextActivities: { grouping: [{ id: AU.id }] }, extensions: { [SESSION_ID]: "s-1" } },
      launchMode: "Normal",
      launchParameters: "sample string",
      masteryScore: 0.9,
      moveOn: "CompletedAndPassed",
      returnURL: "https://acme.test/courses/1/lessons/2",
      entitlementKey: { courseStructure: "sample value" },
    });
  });
});

describe("The LMS's statements", () => {
  it("are valid xAPI, in the session's context, with cmi5's category and what each verb carries", () => {
    const launched = launchedStatement(OF, AU, { launchMode: "Normal", launchUrl: "https://7.scorm.test/p/t/index.html" });
    const abandoned = abandonedStatement(OF, 125_430);
    const waived = waivedStatement(OF, "Administrative");
    const satisfied = satisfiedStatement(OF, { id: "https://acme.test/lms/course/1", type: COURSE_TYPE });
    for (const s of [launched, abandoned, waived, satisfied]) {
      const parsed = statementSchema.safeParse(s);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      const context = s.context as {
        contextActivities: { grouping: unknown[]; category: Array<{ id: string }> };
        extensions: Record<string, unknown>;
      };
      expect(context.contextActivities.grouping).toEqual([{ id: AU.id }]);
      expect(context.extensions[SESSION_ID]).toBe("s-1");
      expect(context.contextActivities.category[0].id).toBe(CMI5_CATEGORY);
    }
    expect((launched.context as { extensions: Record<string, unknown> }).extensions[LAUNCH_MODE]).toBe("Normal");
    expect(abandoned.result).toEqual({ duration: "PT2M5.43S" });
    expect(waived.result).toMatchObject({ success: true, completion: true, extensions: { [REASON]: "Administrative" } });
    expect((waived.context as { contextActivities: { category: Array<{ id: string }> } }).contextActivities.category[1].id).toBe(
      MOVE_ON_CATEGORY,
    );
    expect(satisfied.object).toEqual({ objectType: "Activity", id: "https://acme.test/lms/course/1", definition: { type: COURSE_TYPE } });
  });

  it("write durations to the hundredth", () => {
    expect(isoDuration(0)).toBe("PT0S");
    expect(isoDuration(3_723_456)).toBe("PT1H2M3.46S");
  });
});
