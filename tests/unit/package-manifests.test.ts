import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { aus, Cmi5Error, parseCourseStructure, type Cmi5Block } from "~/models/packages/cmi5-structure";
import { packageKind } from "~/models/packages/kind";
import { parseTincan, TincanError } from "~/models/packages/tincan";

/**
 * The manifests of xAPI and cmi5 packages (issue 48; docs/decisions/044-xapi-cmi5-packages.md), read as an LMS
 * must before it imports one: every invalid course structure of ADL's CATAPULT LMS test suite refused for its
 * own reason, its valid ones read whole (tests/fixtures/cmi5/), tincan.xml as the authoring tools write it.
 */
const FIXTURES = path.join(__dirname, "..", "fixtures", "cmi5");
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");
const problemOf = (xml: string, inPackage: boolean) => {
  try {
    parseCourseStructure(xml, { inPackage });
    return null;
  } catch (error) {
    if (error instanceof Cmi5Error) return error.problem;
    throw error;
  }
};

describe("cmi5 course structures", () => {
  it("read the suite's valid ones: blocks, AUs, moveOn, mastery score, launch method, parameters", () => {
    const essentials = parseCourseStructure(read("001-essentials.cmi5.xml"), { inPackage: true });
    expect(essentials.id).toBe("https://w3id.org/xapi/cmi5/catapult/lts/course/001-essentials");
    expect(essentials.title).toEqual({ en: "CATAPULT LMS Test Course: 001 Essentials" });
    const block = essentials.children[0] as Cmi5Block;
    expect(block.kind).toBe("block");
    expect(block.children[0]).toEqual({
      kind: "au",
      id: "https://w3id.org/xapi/cmi5/catapult/lts/au/001-essentials",
      title: { en: "CATAPULT LMS Test AU: 001 Essentials" },
      description: { en: "CATAPULT LMS Test AU: 001 Essentials" },
      url: "index.html?paramA=1&paramB=2",
      moveOn: "CompletedAndPassed",
      masteryScore: 0.9,
      launchMethod: "AnyWindow",
      activityType: null,
      launchParameters: "sample string",
      entitlementKey: "sample value",
      objectives: [],
    });
    const allowed = aus(parseCourseStructure(read("002-allowed.cmi5.xml"), { inPackage: true }).children);
    expect(allowed.map((a) => [a.moveOn, a.launchMethod, a.masteryScore])).toEqual([["CompletedOrPassed", "AnyWindow", null]]);
    const own = aus(parseCourseStructure(read("003-launchMethod-OwnWindow.cmi5.xml"), { inPackage: true }).children);
    expect(own[0].launchMethod).toBe("OwnWindow");
  });

  it("refuse each of the suite's invalid ones for its own reason", () => {
    const expected: Record<string, string> = {
      "201-1-iris-course-id.xml": "cmi5_id_not_iri",
      "201-2-iris-block-id.xml": "cmi5_id_not_iri",
      "201-3-iris-au-id.xml": "cmi5_id_not_iri",
      "201-4-iris-objective-id.xml": "cmi5_id_not_iri",
      "202-1-relative-url-no-zip.xml": "cmi5_relative_url",
      "202-2-relative-url-no-zip.xml": "cmi5_relative_url",
      "202-3-relative-url-no-zip.xml": "cmi5_relative_url",
      "202-4-relative-url-no-zip.xml": "cmi5_relative_url",
      "202-5-relative-url-no-zip.xml": "cmi5_relative_url",
      "204-query-string-conflict-endpoint.xml": "cmi5_url_parameter",
      "205-1-duplicated-block.xml": "cmi5_duplicate_id",
      "205-2-duplicated-objective.xml": "cmi5_duplicate_id",
      "205-3-duplicated-au.xml": "cmi5_duplicate_id",
      "206-1-invalid-au-url.xml": "cmi5_url",
      "207-1-invalid-courseStructure.xml": "cmi5_schema",
      "208-1-invalid-package.md": "cmi5_parse",
    };
    const found = Object.fromEntries(Object.keys(expected).map((name) => [name, problemOf(read(name), false)]));
    expect(found).toEqual(expected);
  });

  it("take a relative AU URL inside a package only, and never one that leaves its root", () => {
    expect(problemOf(read("202-1-relative-url-no-zip.xml"), true)).toBeNull();
    expect(problemOf(read("202-4-relative-url-no-zip.xml"), true)).toBeNull();
    expect(problemOf(read("202-5-relative-url-no-zip.xml"), true)).toBe("cmi5_relative_url");
    // 203's cmi5.xml is valid: its refusal is the missing file, which only the zip's listing shows.
    expect(problemOf(read("203-1-relative-url-no-reference.cmi5.xml"), true)).toBeNull();
  });

  it("read a thousand AUs (the suite's 101) in order", () => {
    const members = Array.from(
      { length: 1000 },
      (_, i) =>
        `<au id="https://example.test/au/${i}" moveOn="Completed"><title><langstring lang="en">AU ${i}</langstring></title><description><langstring lang="en">d</langstring></description><url>https://content.example.test/au/${i}</url></au>`,
    ).join("");
    const xml = `<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd"><course id="https://example.test/c"><title><langstring lang="en">C</langstring></title><description><langstring lang="en">D</langstring></description></course>${members}</courseStructure>`;
    const list = aus(parseCourseStructure(xml, { inPackage: false }).children);
    expect(list).toHaveLength(1000);
    expect(list[999].url).toBe("https://content.example.test/au/999");
  });
});

const TINCAN = `<?xml version="1.0" encoding="utf-8" ?>
<tincan xmlns="http://projecttincan.com/tincan.xsd">
  <activities>
    <activity id="https://example.test/forklift/quiz" type="http://adlnet.gov/expapi/activities/assessment">
      <name>Quiz</name>
    </activity>
    <activity id="https://example.test/forklift" type="http://adlnet.gov/expapi/activities/course">
      <name lang="en-US">Forklift safety</name>
      <name lang="da-DK">Gaffeltruck</name>
      <description lang="en-US">A short course</description>
      <launch lang="en-us">story.html</launch>
    </activity>
  </activities>
</tincan>`;

describe("tincan.xml", () => {
  it("launches the course activity, with its names and the others it declares", () => {
    const read = parseTincan(TINCAN);
    expect(read.launch).toMatchObject({
      id: "https://example.test/forklift",
      launch: "story.html",
      name: { "en-US": "Forklift safety", "da-DK": "Gaffeltruck" },
    });
    expect(read.activities.map((a) => a.id)).toEqual(["https://example.test/forklift/quiz", "https://example.test/forklift"]);
  });

  it("refuses one it cannot launch, or that reaches out of the package", () => {
    const problem = (xml: string) => {
      try {
        parseTincan(xml);
        return null;
      } catch (error) {
        return error instanceof TincanError ? error.problem : String(error);
      }
    };
    expect(problem("<tincan><activities")).toBe("tincan_parse");
    expect(problem(TINCAN.replace('<launch lang="en-us">story.html</launch>', ""))).toBe("tincan_no_launch");
    expect(problem(TINCAN.replace("story.html", "../secret.html"))).toBe("tincan_launch_url");
    expect(problem(TINCAN.replace("story.html", "https://elsewhere.test/x.html"))).toBe("tincan_launch_url");
    expect(problem(TINCAN.replace('id="https://example.test/forklift"', 'id="forklift"'))).toBe("tincan_id_not_iri");
    expect(problem(TINCAN.replace("forklift/quiz", "forklift"))).toBe("tincan_duplicate_id");
  });
});

describe("A package's kind", () => {
  it("is its root manifest's: cmi5 before xAPI before SCORM; a manifest in a folder is named", () => {
    expect(packageKind(["imsmanifest.xml", "index.html"])).toEqual({ kind: "scorm", manifest: "imsmanifest.xml" });
    expect(packageKind(["tincan.xml", "story.html", "imsmanifest.xml"])).toEqual({ kind: "xapi", manifest: "tincan.xml" });
    expect(packageKind(["cmi5.xml", "tincan.xml"])).toEqual({ kind: "cmi5", manifest: "cmi5.xml" });
    expect(packageKind(["course/cmi5.xml", "course/index.html"])).toEqual({ problem: "manifest_not_at_root", path: "course/cmi5.xml" });
    expect(packageKind(["README.md"])).toEqual({ problem: "no_manifest" });
  });
});
