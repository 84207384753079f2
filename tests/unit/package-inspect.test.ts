import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectCourseStructure, inspectZip, PackageError } from "~/models/packages/inspect.server";
import { makeZip, manifest12, type ZipEntry } from "../helpers/zip";

/**
 * An uploaded xAPI or cmi5 package read and checked before anything is written (issue 48; docs/decisions/
 * 044-xapi-cmi5-packages.md): the CATAPULT suite's import cases that only a zip shows (203, 209, 210), a
 * package zipped a level too deep, a zip slip, and the kinds told apart.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-packages-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const FIXTURES = path.join(__dirname, "..", "fixtures", "cmi5");
const ESSENTIALS = fs.readFileSync(path.join(FIXTURES, "001-essentials.cmi5.xml"), "utf8");
const NO_REFERENCE = fs.readFileSync(path.join(FIXTURES, "203-1-relative-url-no-reference.cmi5.xml"), "utf8");
const TINCAN = `<tincan xmlns="http://projecttincan.com/tincan.xsd"><activities>
  <activity id="https://example.test/course" type="http://adlnet.gov/expapi/activities/course"><name>Course</name><launch>story.html?x=1</launch></activity>
</activities></tincan>`;

let n = 0;
function zipOf(entries: ZipEntry[] | Buffer) {
  const file = path.join(dir, `${n++}.zip`);
  fs.writeFileSync(file, Buffer.isBuffer(entries) ? entries : makeZip(entries));
  return file;
}
async function problemOf(file: string) {
  try {
    await inspectZip(file);
    return null;
  } catch (error) {
    if (error instanceof PackageError) return error.problem;
    throw error;
  }
}

describe("An xAPI or cmi5 upload", () => {
  it("reads a cmi5 zip whose AUs' files are in it, and a bare course structure", async () => {
    const read = await inspectZip(
      zipOf([
        { name: "cmi5.xml", data: ESSENTIALS },
        { name: "index.html", data: "<p>AU</p>" },
      ]),
    );
    expect(read).toMatchObject({ kind: "cmi5", files: 2, course: { id: "https://w3id.org/xapi/cmi5/catapult/lts/course/001-essentials" } });
    const bare = ESSENTIALS.replace(/index\.html\?paramA/, "https://content.example.test/index.html?paramA");
    expect(inspectCourseStructure(bare)).toMatchObject({ kind: "cmi5", files: 0 });
  });

  it("reads an xAPI zip and finds its launch file (its query string aside)", async () => {
    const read = await inspectZip(
      zipOf([
        { name: "tincan.xml", data: TINCAN },
        { name: "story.html", data: "<p>story</p>" },
      ]),
    );
    expect(read).toMatchObject({ kind: "xapi", package: { launch: { id: "https://example.test/course", launch: "story.html?x=1" } } });
    expect(await problemOf(zipOf([{ name: "tincan.xml", data: TINCAN }]))).toBe("launch_missing");
  });

  it("refuses what the CATAPULT suite refuses on import: an AU file not in the zip (203), not a zip (209), no cmi5.xml (210)", async () => {
    expect(
      await problemOf(
        zipOf([
          { name: "cmi5.xml", data: NO_REFERENCE },
          { name: "other.html", data: "x" },
        ]),
      ),
    ).toBe("launch_missing");
    expect(await problemOf(zipOf(Buffer.from("This is not a zip archive at all.")))).toBe("not_zip");
    expect(await problemOf(zipOf([{ name: "README.md", data: "no cmi5.xml here" }]))).toBe("no_manifest");
  });

  it("names a manifest zipped a level too deep, and refuses a name that leaves the package", async () => {
    expect(
      await problemOf(
        zipOf([
          { name: "course/cmi5.xml", data: ESSENTIALS },
          { name: "course/index.html", data: "x" },
        ]),
      ),
    ).toBe("manifest_not_at_root");
    expect(
      await problemOf(
        zipOf([
          { name: "cmi5.xml", data: ESSENTIALS },
          { name: "../index.html", data: "x" },
        ]),
      ),
    ).toBe("unsafe_path");
  });

  it("tells a SCORM zip apart, for the SCORM model to install", async () => {
    expect(
      await inspectZip(
        zipOf([
          { name: "imsmanifest.xml", data: manifest12() },
          { name: "index.html", data: "x" },
        ]),
      ),
    ).toEqual({ kind: "scorm" });
  });

  it("reports a broken manifest as the kind's own parse error", async () => {
    expect(await problemOf(zipOf([{ name: "cmi5.xml", data: "<courseStructure><course" }]))).toBe("cmi5_parse");
    expect(await problemOf(zipOf([{ name: "tincan.xml", data: "<tincan><activities" }]))).toBe("tincan_parse");
  });
});
