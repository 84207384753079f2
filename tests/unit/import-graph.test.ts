import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The import graph of app/, server/ and db/ (type-only imports included): no cycles, and the lower layers
 * (db/, app/utils) import nothing above them (issue 31, "One request kernel"). What is still left of both is
 * listed here by name; the lists may only shrink. A new cycle, or a file joining one, fails.
 */
const ROOT = path.resolve(__dirname, "..", "..");

/** Files still in an import cycle, until the request kernel (issue 31) takes them out of it. */
const KNOWN_CYCLES = new Set([
  // app/utils/{auth,api,preferences}.server.ts call each other.
  "app/utils/api.server.ts",
  "app/utils/auth.server.ts",
  "app/utils/preferences.server.ts",
]);

/** Imports from a lower layer to a higher one, still to be moved (the request kernel's access module). */
const KNOWN_UPWARD = new Set([
  "app/utils/auth.server.ts",
  "app/utils/context.server.ts",
  "app/utils/learner.server.ts",
  "app/utils/manage.server.ts",
  "app/utils/resource.server.ts",
  "app/utils/sso.server.ts",
  "app/utils/upload.server.ts",
]);

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
    graph.set(path.relative(ROOT, file), [...deps].map((d) => path.relative(ROOT, d)));
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

  it("has no import cycle beyond those still listed", () => {
    const inCycles = cycles(graph).flat();
    expect(inCycles.filter((file) => !KNOWN_CYCLES.has(file))).toEqual([]);
  });

  it("keeps the learning events out of cycles: the models publish, the features subscribe at start-up", () => {
    const events = graph.get("app/models/events.server.ts")!;
    expect(events).toEqual(["db/open.ts"]);
    expect(cycles(graph).flat()).not.toContain("app/models/learning.server.ts");
  });

  it("keeps the Platform out of cycles: its jobs and the models see it only through server/services.ts", () => {
    const inCycles = cycles(graph).flat();
    for (const file of ["server/platform.ts", "server/jobs.ts", "server/certificates.ts", "server/services.ts", "app/models/auth/mail.server.ts", "app/models/user-import.server.ts"]) {
      expect(graph.has(file), file).toBe(true);
      expect(inCycles, file).not.toContain(file);
    }
  });

  it("has db/ import nothing of app/ or server/, and app/utils nothing above it, beyond those still listed", () => {
    const upward: string[] = [];
    for (const [file, deps] of graph) {
      const above = file.startsWith("db/")
        ? ["app/", "server/"]
        : file.startsWith("app/utils/")
          ? ["app/models/", "app/routes/", "app/screens/", "app/components/", "app/api/", "server/"]
          : null;
      if (above && deps.some((d) => above.some((prefix) => d.startsWith(prefix)))) upward.push(file);
    }
    expect(upward.filter((file) => !KNOWN_UPWARD.has(file))).toEqual([]);
  });
});
