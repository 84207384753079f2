import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Issue 31: models own their queries. A route, a screen or a component talks to the database only through
 * app/models/: it imports neither drizzle-orm (any subpath) nor the schema or any other module under db/,
 * not even for a type (the models re-export the row types and lists their callers need).
 */
const ROOT = path.resolve(__dirname, "../..");
const APP = path.join(ROOT, "app");
const DB = path.join(ROOT, "db");
const LAYERS = ["routes", "pages", "screens", "components", "api"].map((dir) => path.join(APP, dir)).filter((dir) => fs.existsSync(dir));

/** Every module specifier a file names: imports, re-exports, `import("…")` calls and `import("…")` types. */
function specifiers(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === "require"))
    )
      literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Whether a specifier, as written in `file`, names drizzle or a module under db/ (relative, `~/…`, or from the base URL). */
function reachesDatabase(file: string, specifier: string) {
  if (specifier === "drizzle-orm" || specifier.startsWith("drizzle-orm/")) return true;
  let target: string;
  if (specifier.startsWith(".")) target = path.resolve(path.dirname(file), specifier);
  else if (specifier.startsWith("~/")) target = path.resolve(APP, specifier.slice(2));
  else if (path.isAbsolute(specifier)) target = specifier;
  else target = path.resolve(ROOT, specifier); // a bare `db/tenant` (no base URL in tsconfig: the type check refuses it) still counts
  return target === DB || target.startsWith(DB + path.sep);
}

function databaseImports(file: string, text = fs.readFileSync(file, "utf8")): string[] {
  return specifiers(file, text)
    .filter((s) => reachesDatabase(file, s))
    .map((s) => `${path.relative(ROOT, file)} imports ${s}`);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(tsx?|jsx?|mjs|cjs)$/.test(entry.name) ? [full] : [];
  });
}

describe("routes, pages, screens and components", () => {
  it("reach the database only through app/models (no drizzle-orm, nothing under db/)", () => {
    const files = LAYERS.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(150);
    expect(files.flatMap((file) => databaseImports(file))).toEqual([]);
  }, 30_000); // parsing some 300 files takes a few seconds on a busy two-core machine

  it("the scan finds every way of naming drizzle or db/", () => {
    // Read as if it were a route: relative paths resolve against the file's own folder.
    const file = path.join(APP, "routes", "sample.tsx");
    const sample = [
      'import { eq } from "drizzle-orm";',
      'import { sqliteTable } from "drizzle-orm/sqlite-core";',
      'import { users } from "../../db/tenant";',
      'import type { TenantConn } from "../../db/open";',
      'export { organizations } from "../../db/platform";',
      'import { x } from "~/../db/prepared";',
      'import { y } from "db/group-commit";',
      'type Row = import("../../db/tenant").User;',
      'const lazy = () => import("../../db/content-cache");',
      'import { fine } from "~/models/user.server";',
      'import { alsoFine } from "../utils/db-helpers";',
      'import { lists } from "~/models/vocabulary";',
    ].join("\n");
    expect(databaseImports(file, sample)).toEqual(
      [
        "drizzle-orm",
        "drizzle-orm/sqlite-core",
        "../../db/tenant",
        "../../db/open",
        "../../db/platform",
        "~/../db/prepared",
        "db/group-commit",
        "../../db/tenant",
        "../../db/content-cache",
      ].map((s) => `app/routes/sample.tsx imports ${s}`),
    );
  });
});
