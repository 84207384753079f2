import { describe, expect, it } from "vitest";
import { parseManifest } from "~/models/scorm/manifest.server";
import { contentsOf, listedItems, requiredItems } from "~/models/scorm/contents";
import { applyExitDefaults, statusesOf } from "~/models/scorm/status";

/**
 * Issue 45 items 2 and 5: the contents list as the manifest describes it, and what the LMS sets when a SCO's
 * session ends without the content having set its status.
 */
const manifest = (version: "1.2" | "2004", organization: string, resources: string, extra = "") => `<?xml version="1.0"?>
<manifest identifier="m" xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>${version === "1.2" ? "1.2" : "2004 4th Edition"}</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Course</title>${organization}</organization></organizations>
  <resources>${resources}</resources>${extra}
</manifest>`;
const sco = (id: string, type = "sco") => `<resource identifier="${id}" type="webcontent" adlcp:scormType="${type}" href="${id}.html"/>`;

describe("the contents list (item 5)", () => {
  const parsed = parseManifest(
    manifest(
      "1.2",
      `<item identifier="ch1"><title>Chapter one</title>
         <item identifier="a" identifierref="ra"><title>A</title></item>
         <item identifier="hidden" identifierref="rh" isvisible="false"><title>Hidden</title></item>
         <item identifier="sub"><title>Section 1.1</title>
           <item identifier="b" identifierref="rb"><title>B</title></item>
         </item>
       </item>
       <item identifier="ch2"><title>Only an asset</title>
         <item identifier="pdf" identifierref="rpdf"><title>Handout</title></item>
       </item>
       <item identifier="ch3" isvisible="false"><title>Invisible chapter</title>
         <item identifier="c" identifierref="rc"><title>C</title></item>
       </item>`,
      sco("ra") + sco("rh") + sco("rb") + sco("rpdf", "asset") + sco("rc"),
    ),
  );

  it("keeps the chapters as headings before their first item, and leaves out hidden items and assets", () => {
    const titles = contentsOf(parsed.items).map((e) =>
      e.kind === "heading" ? `# ${e.title} (${e.depth})` : `${parsed.items[e.index]!.title} (${e.depth})`,
    );
    // The chapter holding only an asset shows no heading; an invisible chapter's title is not shown, its visible item is.
    expect(titles).toEqual(["# Chapter one (0)", "A (1)", "# Section 1.1 (1)", "B (2)", "C (1)"]);
    expect(parsed.items.map((i) => i.identifier)).toEqual(["a", "hidden", "b", "pdf", "c"]);
    expect(listedItems(parsed.items)).toEqual([true, false, true, false, true]);
  });

  it("the listed SCOs are what completes the lesson", () => {
    expect(requiredItems(parsed.items).map((i) => parsed.items[i]!.identifier)).toEqual(["a", "b", "c"]);
  });

  it("a package whose only item is hidden, or only assets, still lists them", () => {
    const hiddenOnly = parseManifest(
      manifest("1.2", `<item identifier="x" identifierref="rx" isvisible="false"><title>X</title></item>`, sco("rx")),
    );
    expect(listedItems(hiddenOnly.items)).toEqual([true]);
    expect(requiredItems(hiddenOnly.items)).toEqual([0]);
    const assets = parseManifest(manifest("1.2", `<item identifier="x" identifierref="rx"><title>X</title></item>`, sco("rx", "asset")));
    expect(listedItems(assets.items)).toEqual([true]);
  });

  it("without an organization, the first SCO is launched rather than an asset listed before it", () => {
    const parsed = parseManifest(
      `<?xml version="1.0"?><manifest identifier="m" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"><organizations/>
       <resources>${sco("handout", "asset")}${sco("lesson")}</resources></manifest>`,
    );
    expect(parsed.items.map((i) => i.identifier)).toEqual(["lesson"]);
  });
});

describe("SCORM 2004 delivery controls are read from the manifest", () => {
  it("an item's own, one named in the sequencing collection, and the defaults (false)", () => {
    const parsed = parseManifest(
      manifest(
        "2004",
        `<item identifier="own" identifierref="r1"><title>Own</title>
           <imsss:sequencing><imsss:deliveryControls completionSetByContent="true" objectiveSetByContent="true"/></imsss:sequencing></item>
         <item identifier="shared" identifierref="r2"><title>Shared</title><imsss:sequencing IDRef="common"/></item>
         <item identifier="plain" identifierref="r3"><title>Plain</title></item>`,
        sco("r1") + sco("r2") + sco("r3"),
        `<imsss:sequencingCollection><imsss:sequencing ID="common"><imsss:deliveryControls completionSetByContent="true"/></imsss:sequencing></imsss:sequencingCollection>`,
      ),
    );
    expect(parsed.items.map((i) => [i.identifier, i.completionSetByContent, i.objectiveSetByContent])).toEqual([
      ["own", true, true],
      ["shared", true, false],
      ["plain", false, false],
    ]);
  });
});

describe("what the LMS sets at exit when the content did not (item 2)", () => {
  const item = { masteryScore: null, completionSetByContent: false, objectiveSetByContent: false };

  it("SCORM 1.2: not attempted becomes completed, then passed or failed against the mastery score", () => {
    const untouched: Record<string, string> = { "cmi.core.lesson_status": "not attempted" };
    applyExitDefaults("1.2", item, untouched);
    expect(untouched["cmi.core.lesson_status"]).toBe("completed");
    const scored: Record<string, string> = { "cmi.core.lesson_status": "not attempted", "cmi.core.score.raw": "79" };
    applyExitDefaults("1.2", { ...item, masteryScore: 80 }, scored);
    expect(scored["cmi.core.lesson_status"]).toBe("failed");
    const passed: Record<string, string> = { "cmi.core.score.raw": "80" };
    applyExitDefaults("1.2", { ...item, masteryScore: 80 }, passed);
    expect(statusesOf("1.2", passed)).toEqual({ completionStatus: "passed", successStatus: "passed" });
    // A status the content set is its own.
    const set: Record<string, string> = { "cmi.core.lesson_status": "incomplete", "cmi.core.score.raw": "95" };
    applyExitDefaults("1.2", { ...item, masteryScore: 80 }, set);
    expect(set["cmi.core.lesson_status"]).toBe("incomplete");
  });

  it("SCORM 2004: the attempt counts as completed and satisfied, the content's elements stay unknown", () => {
    const cmi: Record<string, string> = { "cmi.completion_status": "unknown", "cmi.success_status": "unknown", "cmi.exit": "" };
    applyExitDefaults("2004", item, cmi);
    expect(cmi["cmi.completion_status"]).toBe("unknown");
    expect(statusesOf("2004", cmi)).toEqual({ completionStatus: "completed", successStatus: "passed" });
  });

  it("SCORM 2004: not when the content decides (SetByContent), nor when it reported, nor when the learner suspended", () => {
    const byContent: Record<string, string> = { "cmi.completion_status": "unknown" };
    applyExitDefaults("2004", { ...item, completionSetByContent: true, objectiveSetByContent: true }, byContent);
    expect(statusesOf("2004", byContent)).toEqual({ completionStatus: "unknown", successStatus: "unknown" });
    const reported: Record<string, string> = { "cmi.completion_status": "incomplete", "cmi.success_status": "failed" };
    applyExitDefaults("2004", item, reported);
    expect(statusesOf("2004", reported)).toEqual({ completionStatus: "incomplete", successStatus: "failed" });
    const suspended: Record<string, string> = { "cmi.exit": "suspend" };
    applyExitDefaults("2004", item, suspended);
    expect(statusesOf("2004", suspended)).toEqual({ completionStatus: "unknown", successStatus: "unknown" });
  });
});
