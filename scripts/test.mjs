// `npm test`: the type check and the lint (`npm run lint`: ESLint and Prettier's check) run beside the build
// and the tests, as they need neither (on two cores they use the second while the first builds and seeds
// the demo). The run fails if any fails; a failed build skips the tests.
import { spawn } from "node:child_process";

const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const [checks, tests] = await Promise.all([
  run("npx", ["tsc", "--noEmit"]).then(async (typecheck) => ({ typecheck, lint: await run("npm", ["run", "lint"]) })),
  run("npm", ["run", "build"]).then((code) => (code === 0 ? run("npx", ["vitest", "run"]) : code)),
]);
if (checks.typecheck !== 0) console.error("\nnpm test: the type check failed (tsc --noEmit, above).");
if (checks.lint !== 0) console.error("\nnpm test: the lint failed (npm run lint, above; `npm run format` fixes the formatting).");
process.exit(checks.typecheck || checks.lint || tests);
