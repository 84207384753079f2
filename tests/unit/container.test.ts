import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * No Docker engine runs here or in CI, so the image's recipe is checked the way we can: what it copies
 * exists, it runs as a non-root user with a health check, and everything the server imports at run time
 * survives the image's `npm prune --omit=dev`.
 */
const root = path.resolve(__dirname, "..", "..");
const dockerfile = fs.readFileSync(path.join(root, "Dockerfile"), "utf8");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));

/** Instructions with their continuation lines joined. */
const instructions = dockerfile
  .replace(/\\\n/g, " ")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"));

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mjs|cjs|js)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

describe("the container image recipe", () => {
  it("copies only files that exist", () => {
    const copies = instructions.filter((l) => l.startsWith("COPY ") && !l.includes("--from="));
    expect(copies.length).toBeGreaterThan(0);
    for (const line of copies) {
      const parts = line
        .split(/\s+/)
        .slice(1)
        .filter((p) => !p.startsWith("--"));
      for (const source of parts.slice(0, -1)) {
        expect(fs.existsSync(path.join(root, source)), `${source} (${line})`).toBe(true);
      }
    }
  });

  it("runs as a non-root user, keeps data in a volume and checks readiness", () => {
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(runtime).toMatch(/\nUSER node\n/);
    expect(runtime).toMatch(/VOLUME \["\/data"\]/);
    expect(runtime).toMatch(/DATA_DIR=\/data/);
    expect(runtime).toMatch(/HEALTHCHECK[\s\S]*\/readyz/);
    expect(runtime).toMatch(/chromium/);
    // The base image's Node satisfies package.json's engines.
    const nodeVersion = /ARG NODE_VERSION=(\d+)\.(\d+)/.exec(dockerfile)!;
    const engines = /(\d+)\.(\d+)/.exec(pkg.engines.node)!;
    expect(Number(nodeVersion[1]) * 1000 + Number(nodeVersion[2])).toBeGreaterThanOrEqual(Number(engines[1]) * 1000 + Number(engines[2]));
  });

  it("never seeds by itself: only docker-compose.yml's one-shot demo service runs the seed script", () => {
    // Issue 30: an image started on an empty volume must create no account (README "Run in production").
    const cmd = instructions.find((l) => l.startsWith("CMD "))!;
    expect(cmd).not.toMatch(/seed/);
    const compose = fs.readFileSync(path.join(root, "docker-compose.yml"), "utf8");
    // Each service's text, by its two-space-indented name under `services:`.
    const services = Object.fromEntries(
      compose
        .slice(compose.indexOf("\nservices:\n"), compose.indexOf("\nvolumes:\n"))
        .split(/\n(?= {2}[\w-]+:\n)/)
        .slice(1)
        .map((text) => [text.trim().split(":")[0], text]),
    );
    expect(Object.keys(services).sort()).toEqual(["demo", "lectern", "mailpit"]);
    expect(services.demo).toContain('command: ["npm", "run", "seed"]');
    expect(services.lectern).not.toMatch(/command:|seed/);
    expect(services.lectern).toMatch(/demo:\n\s+condition: service_completed_successfully/);
    expect(pkg.scripts.seed).toBe("node --import tsx scripts/seed.ts");
    expect(pkg.dependencies.tsx, "the seed script runs under tsx in the image").toBeTruthy();
  });

  it("every package the server imports is a runtime dependency (dev ones are pruned from the image)", () => {
    const runtimeDirs = ["app", "server", "db"];
    const files = [
      ...runtimeDirs.flatMap(sourceFiles),
      ...[
        "scripts/demo.ts",
        "scripts/seed.ts",
        "scripts/migrate.ts",
        "scripts/backup.ts",
        "scripts/restore.ts",
        "scripts/create-super-admin.ts",
      ]
        .map((f) => path.join(root, f))
        .filter((f) => fs.existsSync(f)),
      ...(fs.existsSync(path.join(root, "scripts", "demo")) ? sourceFiles("scripts/demo") : []),
    ].filter((f) => !/drizzle\.\w+\.config\.ts$/.test(f)); // drizzle-kit's configuration is for developers
    const builtins = new Set(builtinModules);
    const missing = new Set<string>();
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      for (const match of text.matchAll(
        /^\s*(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s+"([^"]+)"|^\s*import\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)/gm,
      )) {
        const specifier = match[1] ?? match[2] ?? match[3];
        if (!specifier || specifier.startsWith(".") || specifier.startsWith("~/") || specifier.startsWith("node:")) continue;
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
        if (builtins.has(name)) continue;
        if (!pkg.dependencies[name]) missing.add(`${name} (${path.relative(root, file)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });
});
