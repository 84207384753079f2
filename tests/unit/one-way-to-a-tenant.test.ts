import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 31, "one way to a tenant": an organization's database is reached through the pool's
 * `withTenant`, a request's `holdFor` or a sweep's `peek` (db/tenant-pool.ts), never by an acquire and a
 * release written by hand, which leak a handle on the first early return or throw between them. Taking
 * and giving back a handle is db/'s business alone.
 */
const root = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["app", "server", "scripts"];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
/**
 * `acquire(` and `.release(` as calls or definitions. A class's own private `#acquire()`/`#release()`
 * (the certificate renderer's slots, server/pdf-renderer.ts) cannot be the pool's and does not count.
 */
const HAND_WRITTEN = [/(?<![#\w])acquire\s*\(/, /\.release\s*\(/];

function sourceFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return SOURCE.test(entry.name) ? [full] : [];
  });
}

/** Every line of app/, server/ and scripts/ that takes or gives back a lease by hand, as `file:line: text`. */
function handWrittenLeases(base = root) {
  const found: string[] = [];
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(path.join(base, folder))) {
      fs.readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (HAND_WRITTEN.some((pattern) => pattern.test(line))) found.push(`${path.relative(base, file)}:${index + 1}: ${line.trim()}`);
        });
    }
  }
  return found;
}

describe("one way to a tenant", () => {
  it("no acquire( or .release( outside db/", () => {
    expect(handWrittenLeases()).toEqual([]);
  });

  it("finds one where it is written (the check itself works)", () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-one-way-"));
    try {
      for (const folder of FOLDERS) fs.mkdirSync(path.join(base, folder));
      fs.writeFileSync(
        path.join(base, "server", "sneaky.ts"),
        "const lease = platform.tenants.acquire(id);\ntry { use(lease.db); } finally { platform.tenants.release(lease); }\nawait this.#acquire();\n",
      );
      expect(handWrittenLeases(base)).toEqual([
        "server/sneaky.ts:1: const lease = platform.tenants.acquire(id);",
        "server/sneaky.ts:2: try { use(lease.db); } finally { platform.tenants.release(lease); }",
      ]);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
