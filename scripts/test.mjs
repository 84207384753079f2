// `npm test`: the type check runs beside the build and the tests, as it needs neither of them (on two
// cores it uses the second while the first builds and seeds the demo). The run fails if either fails;
// a failed build skips the tests.
import { spawn } from "node:child_process";

const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.on("error", () => resolve(1));
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const [typecheck, tests] = await Promise.all([
  run("npx", ["tsc", "--noEmit"]),
  run("npm", ["run", "build"]).then((code) => (code === 0 ? run("npx", ["vitest", "run"]) : code)),
]);
if (typecheck !== 0) console.error("\nnpm test: the type check failed (tsc --noEmit, above).");
process.exit(typecheck || tests);
