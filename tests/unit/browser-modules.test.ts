import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * In the browser build every `*.server` module is empty, so a value imported from one is `undefined` there.
 * A module the browser loads (a route, a screen, a component) may use such values only inside functions
 * that run on the server (loaders, actions); read at module level (`const s = resource.createSchema`,
 * `export const loader = makeLoader("admin")`) it throws or misbehaves as the page's JavaScript starts.
 */
function moduleLevelServerReads(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const imported = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    if (!/\.server$/.test(statement.moduleSpecifier.text) || !clause || clause.isTypeOnly) continue;
    if (clause.name) imported.add(clause.name.text);
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) imported.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) if (!e.isTypeOnly) imported.add(e.name.text);
  }
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) || ts.isTypeNode(node)) return; // bodies run later, on the server; types vanish
    if (ts.isIdentifier(node) && imported.has(node.text)) {
      const parent = node.parent;
      const isName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) || (ts.isPropertyAssignment(parent) && parent.name === node);
      if (!isName) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${node.text}`);
    }
    ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) || ts.isFunctionDeclaration(statement)) continue;
    visit(statement);
  }
  return found;
}

function browserModules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return browserModules(full);
    return /\.tsx?$/.test(entry.name) && !/\.server\.tsx?$/.test(entry.name) && !/^api\./.test(entry.name) ? [full] : [];
  });
}

describe("modules the browser loads", () => {
  it("never read a server module's value at module level", () => {
    const files = browserModules(path.resolve(__dirname, "../../app"));
    expect(files.length).toBeGreaterThan(50);
    expect(files.flatMap(moduleLevelServerReads)).toEqual([]);
    // Parsing every module the browser loads takes a second or two alone, several on a busy machine.
  }, 15_000);

  it("finds such a read (the course editor's old bug)", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lectern-scan-")), "screen.tsx");
    fs.writeFileSync(
      file,
      'import { lessonResource } from "~/models/lesson.server";\nconst createLessonSchema = lessonResource.createSchema;\nexport const loader = () => lessonResource;\n',
    );
    expect(moduleLevelServerReads(file)).toEqual([`${file}:2 lessonResource`]);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
