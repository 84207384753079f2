// `npm run test:changed [-- <git ref>]`: the tests a change can affect, against HEAD (the work tree's
// uncommitted and untracked files) or against a ref (`npm run test:changed -- origin/main`). What it picks
// (docs/decisions/006-testing.md "The quick loop"):
// - every test file that imports a changed file, directly or through others (vitest's `--changed`), and the
//   changed test files themselves; a change to vitest.config.ts or tests/setup/ picks every file;
// - when a file outside tests/ changed: every unit test that reads the repository's files by path (layers,
//   import graph, locales, doc citations…), which no import leads to;
// - when something the built server runs changed (app/, server/, db/, migrations/, locales/, public/, the
//   Remix config, the demo, the packages): every integration and e2e file, after `npm run build`. They reach
//   the app through a server process, so no import says which of them a change touches.
// No type check and no lint: `npm test` does those. `--list` prints the files it would run, and stops.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const listOnly = process.argv.includes("--list");
const ref = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? "HEAD";
const count = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;
const git = (...args) => execFileSync("git", args, { encoding: "utf8" }).split("\n").filter(Boolean);
const changed = [...new Set([...git("diff", "--name-only", ref), ...git("ls-files", "--others", "--exclude-standard")])];
if (changed.length === 0) {
  console.log(`No change against ${ref}: no test to run.`);
  process.exit(0);
}

const SERVER = [
  /^(app|server|db|migrations|locales|public)\//,
  /^scripts\/(demo|seed|build)/,
  /^(remix\.config\.js|package(-lock)?\.json)$/,
];
const serverSide = changed.some((file) => SERVER.some((pattern) => pattern.test(file)));
const outsideTests = changed.some((file) => !file.startsWith("tests/"));

const npx = (args, options = {}) => spawnSync("npx", args, { encoding: "utf8", ...options });
const listed = npx(["vitest", "list", "--changed", ref, "--filesOnly", "--json"]);
if (listed.status !== 0) {
  process.stderr.write(listed.stdout + listed.stderr);
  process.exit(listed.status ?? 1);
}
const files = new Set(JSON.parse(listed.stdout).map((entry) => path.relative(process.cwd(), entry.file)));

const testFiles = (dir) =>
  fs
    .readdirSync(dir)
    .filter((name) => /\.test\.tsx?$/.test(name))
    .map((name) => path.join(dir, name));
if (outsideTests)
  for (const file of testFiles("tests/unit"))
    if (/readFileSync|readdirSync|sourceFiles\(/.test(fs.readFileSync(file, "utf8"))) files.add(file);
if (serverSide) for (const file of [...testFiles("tests/integration"), ...testFiles("tests/e2e")]) files.add(file);

if (files.size === 0) {
  console.log(`Changed against ${ref}: ${count(changed.length, "file")}, none that a test reaches.`);
  process.exit(0);
}
const needsBuild = [...files].some((file) => !file.startsWith("tests/unit/"));
console.log(
  `Changed against ${ref}: ${count(changed.length, "file")}; ${count(files.size, "test file")}${needsBuild ? ", after the build" : ""}.`,
);
if (listOnly) {
  for (const file of [...files].sort()) console.log(`  ${file}`);
  process.exit(0);
}
if (needsBuild) {
  const build = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
process.exit(npx(["vitest", "run", ...[...files].sort()], { stdio: "inherit" }).status ?? 1);
