import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 32: a comment cites only what a reader of this repository can open. The product description, the
 * architecture and the security properties live in docs/ (docs/product.md, docs/architecture.md,
 * docs/security.md; the stack's traps in docs/decisions/001-stack-and-layout.md), so no file may cite the
 * documents they came from, and every `docs/….md` a file names must exist.
 */
const ROOT = path.resolve(__dirname, "../..");
const SCANNED = ["app", "server", "db", "scripts", "tests", "migrations", "docs", "locales", ".ci", "README.md", "Dockerfile"];
const SKIPPED_DIRS = new Set(["node_modules", "build", "artifacts", ".cache"]);
const TEXT = /\.(ts|tsx|js|mjs|cjs|json|md|sql|css|sh|ya?ml|txt|html)$|(^|\/)(Dockerfile|run)$/;
const SELF = path.relative(ROOT, __filename).split(path.sep).join("/");

/** The documents outside this repository, and the product specification's old "spec §N" form. */
const OUTSIDE = new RegExp(`\\b(${["ARCHITECTURE", "STACK", "SECURITY", "SPEC", "STYLE"].join("|")})\\.md\\b|\\b[Ss]pec §`);

/** Files allowed to keep an old citation, each with its reason. */
const ALLOWED = [
  // A landed migration is never edited (its hash is recorded in every database it ran on); its "Spec §9" is
  // docs/product.md §9, which calls itself the spec.
  /^migrations\/tenant\/0019_auth_hardening\.sql$/,
];

function filesUnder(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!fs.existsSync(full)) return [];
  const stat = fs.statSync(full);
  if (stat.isFile()) return TEXT.test(entry) && stat.size < 2_000_000 ? [entry] : [];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((child) => !(child.isDirectory() && SKIPPED_DIRS.has(child.name)))
    .flatMap((child) => filesUnder(`${entry}/${child.name}`));
}

const files = SCANNED.flatMap(filesUnder).filter((file) => file !== SELF);

/** Every line of every scanned file, with where it is. */
function* lines() {
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    let number = 0;
    for (const line of text.split("\n")) yield { file, number: ++number, line };
  }
}

describe("citations in comments and docs", () => {
  it("scans the code, tests, scripts, migrations and docs", () => {
    expect(files).toContain("README.md");
    expect(files).toContain("docs/product.md");
    expect(files.filter((file) => file.startsWith("app/")).length).toBeGreaterThan(100);
  });

  it("cite no document outside this repository (docs/product.md, docs/architecture.md, docs/security.md instead)", () => {
    const found: string[] = [];
    for (const { file, number, line } of lines()) {
      if (!OUTSIDE.test(line) || ALLOWED.some((allowed) => allowed.test(file))) continue;
      found.push(`${file}:${number}: ${line.trim().slice(0, 120)}`);
    }
    expect(found, found.join("\n")).toEqual([]);
  });

  it("name only docs/….md files that exist", () => {
    const missing: string[] = [];
    for (const { file, number, line } of lines()) {
      for (const [cited] of line.matchAll(/(?<![\w./-])docs\/[\w./-]*?\.md\b/g)) {
        if (!fs.existsSync(path.join(ROOT, cited))) missing.push(`${file}:${number}: ${cited}`);
      }
    }
    expect(missing, missing.join("\n")).toEqual([]);
  });

  it("cite only sections docs/product.md has", () => {
    const product = fs.readFileSync(path.join(ROOT, "docs/product.md"), "utf8");
    const sections = new Set([...product.matchAll(/^## (\d+)\. /gm)].map((match) => Number(match[1])));
    expect(sections.size).toBeGreaterThanOrEqual(9);
    const unknown: string[] = [];
    for (const { file, number, line } of lines()) {
      for (const match of line.matchAll(/docs\/product\.md §(\d+)((?:,? ?(?:and )?§\d+)*)/g)) {
        const cited = [match[1], ...[...match[2].matchAll(/§(\d+)/g)].map((m) => m[1])].map(Number);
        for (const section of cited) if (!sections.has(section)) unknown.push(`${file}:${number}: §${section}`);
      }
    }
    expect(unknown, unknown.join("\n")).toEqual([]);
  });
});
