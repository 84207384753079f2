// `npm test`: the type check and the lint (`npm run lint`: oxlint and Biome's formatting check) run beside the build
// and the tests, as they need neither, and at a lower priority (`nice -n 10`): on two cores the build, the
// demo's seeding and the test files come first, and the checks take what the cores have left while the
// tests wait on their servers and browser, instead of slowing them down (docs/decisions/006-testing.md).
// The type check runs on one thread (`--singleThreaded`): by default TypeScript 7 checks with several checkers at
// once, each of which checks the shared global types again: 16.9 CPU-s on this two-core machine against 7.6 on
// one thread, which also finishes sooner (7.0 against 8.0 s alone; cgroup, docs/decisions/006-testing.md).
// The run fails if any fails; a failed build skips the tests.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// The tests' closing line (tests/helpers/summary-reporter.ts) is printed again last, after the checks' output.
const summary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lectern-npm-test-")), "summary.txt");
const run = (command, args, env = process.env) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit", env });
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
const low = (command, args) => run("nice", ["-n", "10", command, ...args]);

const [typecheck, lint, tests] = await Promise.all([
  low("npm", ["run", "typecheck", "--", "--singleThreaded"]),
  low("npm", ["run", "lint"]),
  run("npm", ["run", "build"]).then((code) =>
    code === 0 ? run("npx", ["vitest", "run"], { ...process.env, LECTERN_TEST_SUMMARY: summary }) : code,
  ),
]);
if (typecheck !== 0) console.error("\nnpm test: the type check failed (npm run typecheck, above).");
if (lint !== 0) console.error("\nnpm test: the lint failed (npm run lint, above; `npm run format` fixes the formatting).");
if (fs.existsSync(summary)) process.stdout.write(`\n${fs.readFileSync(summary, "utf8")}`);
fs.rmSync(path.dirname(summary), { recursive: true, force: true });
process.exit(typecheck || lint || tests);
