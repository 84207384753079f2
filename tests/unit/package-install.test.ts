import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { courses, lessons } from "../../db/tenant";
import { getContentPackage, installContentPackage } from "~/models/packages/install.server";
import { PackageError } from "~/models/packages/inspect.server";
import { scormRoot } from "~/models/scorm.server";
import { tenantDatabasePerTest } from "../helpers/tenant-database";
import { makeZip, manifest12, type ZipEntry } from "../helpers/zip";

/**
 * An xAPI or cmi5 package installed as a lesson's (issue 48; docs/decisions/044-xapi-cmi5-packages.md, 4), on a
 * real tenant database and folder: unpacked beside the SCORM packages, its structure kept, a replacement
 * swapping the folder and removing the old one, a bare cmi5.xml kept without files, and nothing left by a
 * package refused.
 */
const tenant = tenantDatabasePerTest("lectern-package-install-");
const ESSENTIALS = fs.readFileSync(path.join(__dirname, "..", "fixtures", "cmi5", "001-essentials.cmi5.xml"), "utf8");
const TINCAN = `<tincan><activities><activity id="https://example.test/course" type="http://adlnet.gov/expapi/activities/course"><name lang="en-US">Forklift safety</name><launch>story.html</launch></activity></activities></tincan>`;

function lesson() {
  const course = tenant.db.insert(courses).values({ title: "Packages", published: true }).returning().get();
  return tenant.db.insert(lessons).values({ courseId: course.id, title: "A package", kind: "text", position: 0 }).returning().get();
}
function zip(entries: ZipEntry[]) {
  const file = path.join(tenant.dataDir, `upload-${Math.random().toString(36).slice(2)}.zip`);
  fs.writeFileSync(file, makeZip(entries));
  return file;
}
const folders = () =>
  fs.existsSync(scormRoot(tenant.dataDir, 1)) ? fs.readdirSync(scormRoot(tenant.dataDir, 1)).filter((f) => !f.startsWith(".")) : [];

describe("Installing a package", () => {
  it("unpacks a cmi5 zip beside SCORM's packages and keeps its course structure", async () => {
    const target = lesson();
    const row = await installContentPackage(tenant.db, {
      dataDir: tenant.dataDir,
      organizationId: 1,
      lesson: target,
      upload: {
        zipPath: zip([
          { name: "cmi5.xml", data: ESSENTIALS },
          { name: "index.html", data: "<p>AU</p>" },
        ]),
      },
      uploadedBy: null,
    });
    expect(row).toMatchObject({ kind: "cmi5", title: "CATAPULT LMS Test Course: 001 Essentials", fileCount: 2 });
    expect(fs.readFileSync(path.join(scormRoot(tenant.dataDir, 1), row.folder!, "index.html"), "utf8")).toBe("<p>AU</p>");
    expect((getContentPackage(tenant.db, target.id)!.structure as { id: string }).id).toBe(
      "https://w3id.org/xapi/cmi5/catapult/lts/course/001-essentials",
    );
  });

  it("replaces a package: the new folder in, the old one gone, one row", async () => {
    const target = lesson();
    const options = { dataDir: tenant.dataDir, organizationId: 1, lesson: target, uploadedBy: null };
    const first = await installContentPackage(tenant.db, {
      ...options,
      upload: {
        zipPath: zip([
          { name: "tincan.xml", data: TINCAN },
          { name: "story.html", data: "1" },
        ]),
      },
    });
    const second = await installContentPackage(tenant.db, {
      ...options,
      upload: {
        zipPath: zip([
          { name: "tincan.xml", data: TINCAN },
          { name: "story.html", data: "2" },
        ]),
      },
    });
    expect(second).toMatchObject({ id: first.id, kind: "xapi", title: "Forklift safety" });
    expect(folders()).toEqual([second.folder]);
  });

  it("keeps a bare cmi5.xml as a structure without files", async () => {
    const bare = ESSENTIALS.replace(/index\.html\?paramA/, "https://content.example.test/index.html?paramA");
    const row = await installContentPackage(tenant.db, {
      dataDir: tenant.dataDir,
      organizationId: 1,
      lesson: lesson(),
      upload: { xml: bare },
      uploadedBy: null,
    });
    expect(row).toMatchObject({ kind: "cmi5", folder: null, fileCount: 0 });
  });

  it("leaves nothing behind for a package it refuses, a SCORM zip included", async () => {
    const target = lesson();
    const refused = async (upload: { zipPath: string } | { xml: string }) => {
      try {
        await installContentPackage(tenant.db, { dataDir: tenant.dataDir, organizationId: 1, lesson: target, upload, uploadedBy: null });
        return null;
      } catch (error) {
        return error instanceof PackageError ? error.problem : String(error);
      }
    };
    expect(await refused({ zipPath: zip([{ name: "tincan.xml", data: TINCAN }]) })).toBe("launch_missing");
    expect(
      await refused({
        zipPath: zip([
          { name: "imsmanifest.xml", data: manifest12() },
          { name: "index.html", data: "x" },
        ]),
      }),
    ).toBe("is_scorm");
    expect(await refused({ xml: ESSENTIALS })).toBe("cmi5_relative_url");
    expect(getContentPackage(tenant.db, target.id)).toBeUndefined();
    expect(folders()).toEqual([]);
  });
});
