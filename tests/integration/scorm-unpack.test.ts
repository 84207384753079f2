import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inspectPackage, ScormPackageError } from "~/models/scorm.server";
import { DEFAULT_UNPACK_LIMITS, safeEntryName, UnpackError, unpackZip } from "~/models/scorm/unpack.server";
import { launchFile, parseManifest } from "~/models/scorm/manifest.server";
import { makeZip, manifest12, type ZipEntry } from "../helpers/zip";

/**
 * Unpacking SCORM zips safely (issue 16): real files on disk, harmful archives written by the test.
 * Each refused archive must leave nothing behind, neither outside the package folder nor a half-written
 * folder inside it.
 */
const work = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-scorm-unpack-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const FIXTURES = path.resolve(__dirname, "../fixtures/scorm");

let n = 0;
function zipFile(entries: ZipEntry[] | Buffer) {
  const file = path.join(work, `z${++n}.zip`);
  fs.writeFileSync(file, Buffer.isBuffer(entries) ? entries : makeZip(entries));
  return file;
}

/** Unpacks into a fresh parent folder and checks, on failure, that the parent is left empty. */
async function unpackExpectingError(file: string, problem: string, limits = DEFAULT_UNPACK_LIMITS) {
  const parent = path.join(work, `out${++n}`, "scorm");
  const error = await unpackZip(file, parent, limits).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(UnpackError);
  expect((error as UnpackError).problem).toBe(problem);
  expect(fs.readdirSync(parent)).toEqual([]); // no half-written folder
  expect(fs.readdirSync(path.dirname(parent))).toEqual(["scorm"]); // nothing beside it either
  return parent;
}

async function inspectExpecting(file: string, problem: string) {
  const error = await inspectPackage(file).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ScormPackageError);
  expect((error as ScormPackageError).problem).toBe(problem);
}

describe("unsafe names are refused before anything is written", () => {
  const cases: Array<[string, string]> = [
    ["../evil.txt", "zip-slip"],
    ["a/../../evil.txt", "zip-slip inside a folder"],
    ["/tmp/evil.txt", "absolute path"],
    ["C:/evil.txt", "drive letter"],
    ["..\\evil.txt", "backslash zip-slip"],
    ["a/./b.txt", "dot segment"],
    ["a//b.txt", "empty segment"],
    ["con:stream", "colon"],
  ];
  for (const [name, what] of cases) {
    it(`${what}: ${name}`, async () => {
      const file = zipFile([
        { name: "imsmanifest.xml", data: manifest12() },
        { name: "index.html", data: "<p>hi</p>" },
        { name, data: "pwned" },
      ]);
      await unpackExpectingError(file, "unsafe_path");
      await inspectExpecting(file, "unsafe_path");
      expect(fs.existsSync(path.join(work, "evil.txt"))).toBe(false);
      expect(fs.existsSync("/tmp/evil.txt")).toBe(false);
    });
  }

  it("the name checks on their own", () => {
    expect(safeEntryName("shared/launchpage.html")).toEqual({ name: "shared/launchpage.html", folder: false });
    expect(safeEntryName("shared/")).toEqual({ name: "shared", folder: true });
    for (const bad of ["../x", "x/../../y", "/x", "C:x", "a\\b", "a\u0000b", "a/ ", "a.", "x".repeat(2000)]) {
      expect(() => safeEntryName(bad), bad).toThrow(UnpackError);
    }
  });

  it("symlinks (and other special files) are refused", async () => {
    const file = zipFile([
      { name: "imsmanifest.xml", data: manifest12() },
      { name: "index.html", data: "x" },
      { name: "link", data: "/etc/passwd", mode: 0o120777 },
    ]);
    await unpackExpectingError(file, "symlink");
    await inspectExpecting(file, "symlink");
    const fifo = zipFile([{ name: "pipe", data: "", mode: 0o010644 }]);
    await unpackExpectingError(fifo, "symlink");
  });

  it("a file and a folder of one name do not overwrite each other", async () => {
    const file = zipFile([
      { name: "a", data: "file" },
      { name: "a/b.txt", data: "inside" },
    ]);
    await unpackExpectingError(file, "unsafe_path");
  });
});

describe("zip bombs are stopped while unpacking", () => {
  it("100,000 entries are refused from the directory, before any byte is read", async () => {
    const entries: ZipEntry[] = Array.from({ length: 100_000 }, (_, i) => ({ name: `f${i}.txt` }));
    const file = zipFile(entries);
    await unpackExpectingError(file, "too_many_entries");
    await inspectExpecting(file, "too_many_entries");
  });

  it("an entry that inflates far beyond its compressed size (ratio) is cut off", async () => {
    // 64 MiB of zeros deflate to about 64 KiB: a ratio near 1,000.
    const file = zipFile([{ name: "bomb.bin", data: Buffer.alloc(64 * 1024 * 1024), deflate: true }]);
    expect(fs.statSync(file).size).toBeLessThan(200_000);
    const parent = await unpackExpectingError(file, "ratio");
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it("the total unpacked size is counted on the real bytes, even when the archive lies about them", async () => {
    // Declares 10 bytes, holds 3 MiB of incompressible-looking data.
    const data = crypto.randomBytes(3 * 1024 * 1024);
    const liar = zipFile([{ name: "big.bin", data, deflate: true, declaredSize: 10 }]);
    await unpackExpectingError(liar, "too_large");
    // Honest sizes over the limit are refused from the directory already.
    const big = zipFile([
      { name: "a.bin", data, deflate: true },
      { name: "b.bin", data, deflate: true },
    ]);
    await unpackExpectingError(big, "too_large", { ...DEFAULT_UNPACK_LIMITS, maxBytes: 4 * 1024 * 1024 });
  });
});

describe("packages are checked before unpacking", () => {
  it("the real fixtures: invalid.zip has no manifest, badscorm.zip has it in a folder", async () => {
    await inspectExpecting(path.join(FIXTURES, "invalid.zip"), "no_manifest");
    await inspectExpecting(path.join(FIXTURES, "badscorm.zip"), "manifest_not_at_root");
  });

  it("not a zip, a manifest that does not parse, a missing launch file, an unsupported version", async () => {
    await inspectExpecting(zipFile(Buffer.from("<html>not a zip</html>")), "not_zip");
    await inspectExpecting(zipFile([{ name: "imsmanifest.xml", data: "<manifest><organizations>" }]), "manifest_parse");
    await inspectExpecting(
      zipFile([
        { name: "imsmanifest.xml", data: manifest12("missing.html") },
        { name: "two/index.html", data: "x" },
      ]),
      "launch_missing",
    );
    await inspectExpecting(
      zipFile([
        { name: "imsmanifest.xml", data: manifest12().replace("<schemaversion>1.2</schemaversion>", "<schemaversion>1.1</schemaversion>") },
        { name: "index.html", data: "x" },
        { name: "two/index.html", data: "x" },
      ]),
      "unsupported_version",
    );
  });

  it("the real SCORM 1.2 and 2004 packages: version, title, items and launch files", async () => {
    const p12 = await inspectPackage(path.join(FIXTURES, "singlesco_scorm12.zip"));
    expect(p12.manifest.version).toBe("1.2");
    expect(p12.manifest.title).toBe("Golf Explained - CP Single SCO");
    expect(p12.manifest.items.map((i) => [i.identifier, i.title, i.launch])).toEqual([
      ["item_1", "Golf Explained", "shared/launchpage.html"],
    ]);
    const p04 = await inspectPackage(path.join(FIXTURES, "RuntimeBasicCalls_SCORM20043rdEdition.zip"));
    expect(p04.manifest.version).toBe("2004-3");
    expect(p04.manifest.items[0].launch).toBe("shared/launchpage.html");
  });

  it("several items in the default organization's order, with parameters and mastery score", () => {
    const parsed = parseManifest(manifest12());
    expect(parsed.items.map((i) => [i.identifier, i.title, i.launch, i.masteryScore])).toEqual([
      ["i1", "First", "index.html", 80],
      ["i2", "Second", "two/index.html?page=2", null],
    ]);
    expect(launchFile("two/index.html?page=2#x")).toBe("two/index.html");
    expect(launchFile("../x.html")).toBeNull();
    expect(launchFile("http://evil.example/x.html")).toBeNull();
  });

  it("a good package unpacks whole, into a folder of its own", async () => {
    const parent = path.join(work, "good", "scorm");
    const result = await unpackZip(path.join(FIXTURES, "singlesco_scorm12.zip"), parent);
    expect(fs.readdirSync(parent)).toEqual([result.folder]);
    expect(fs.existsSync(path.join(parent, result.folder, "shared", "launchpage.html"))).toBe(true);
    expect(result.files).toBeGreaterThan(30);
  });
});
