import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The import graph of app/, server/ and db/ (type-only imports included): no cycle anywhere, and each layer
 * imports only those below it (docs/decisions/031-request-kernel.md):
 *
 *   db/  <  app/utils/  <  app/access/  <  app/models/  <  app/kernel/  <  screens, pages, components, api  <  server/
 *
 * (Routes are declared in remix.config.js; there is no app/routes/.)
 *
 * The models may name the platform's services by type (server/services.ts), never the platform itself.
 */
const ROOT = path.resolve(__dirname, "..", "..");

/** What each lower layer must not import: every layer above it. */
const LAYERS: Array<{ layer: string; above: string[] }> = [
  { layer: "db/", above: ["app/", "server/"] },
  {
    layer: "app/utils/",
    above: ["app/access/", "app/models/", "app/kernel/", "app/pages/", "app/screens/", "app/components/", "app/api/", "server/"],
  },
  {
    layer: "app/access/",
    above: ["app/models/", "app/kernel/", "app/pages/", "app/screens/", "app/components/", "app/api/", "server/"],
  },
  { layer: "app/models/", above: ["app/kernel/", "app/pages/", "app/screens/", "app/components/", "app/api/", "server/"] },
  { layer: "app/kernel/", above: ["app/pages/", "app/screens/", "app/components/", "app/api/"] },
];
/** The one way up allowed: the models name the services they use by type (server/services.ts imports only types). */
const ALLOWED_UP = new Set(["server/services.ts"]);

function sourceFiles() {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(full);
    }
  };
  for (const dir of ["app", "server", "db"]) walk(path.join(ROOT, dir));
  return files;
}

const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function importGraph() {
  const files = sourceFiles();
  const known = new Set(files);
  const resolve = (from: string, spec: string) => {
    let base: string;
    if (spec.startsWith("~/")) base = path.join(ROOT, "app", spec.slice(2));
    else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
    else return null;
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, base.replace(/\.js$/, ".ts"), path.join(base, "index.ts")]) {
      if (known.has(candidate)) return candidate;
    }
    return null;
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = new Set<string>();
    for (const match of fs.readFileSync(file, "utf8").matchAll(IMPORT)) {
      const target = resolve(file, match[1] ?? match[2]!);
      if (target) deps.add(target);
    }
    graph.set(
      path.relative(ROOT, file),
      [...deps].map((d) => path.relative(ROOT, d)),
    );
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(graph: Map<string, string[]>) {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("the import graph", () => {
  const graph = importGraph();

  it("has no import cycle", () => {
    expect(cycles(graph)).toEqual([]);
  });

  it("keeps the learning events out of cycles: the models publish, the features subscribe at start-up", () => {
    const events = graph.get("app/models/events.server.ts")!;
    expect(events).toEqual(["db/open.ts"]);
    expect(cycles(graph).flat()).not.toContain("app/models/learning.server.ts");
  });

  it("keeps the Platform out of cycles: its jobs and the models see it only through server/services.ts", () => {
    const inCycles = cycles(graph).flat();
    for (const file of [
      "server/platform.ts",
      "server/jobs.ts",
      "server/certificates.ts",
      "server/services.ts",
      "app/models/auth/mail.server.ts",
      "app/models/user-import.server.ts",
    ]) {
      expect(graph.has(file), file).toBe(true);
      expect(inCycles, file).not.toContain(file);
    }
  });

  it("has each layer import nothing above it", () => {
    const upward: string[] = [];
    for (const [file, deps] of graph) {
      const rule = LAYERS.find((l) => file.startsWith(l.layer));
      if (!rule) continue;
      for (const dep of deps)
        if (!ALLOWED_UP.has(dep) && rule.above.some((prefix) => dep.startsWith(prefix))) upward.push(`${file} -> ${dep}`);
    }
    expect(upward).toEqual([]);
  });
});
