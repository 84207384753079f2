import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../../tests/helpers/server";
import { removeTempDirs } from "../../tests/helpers/temp";

/**
 * A conformance run (xapi.ts, cmi5.ts): the build made first when there is none, `work` answering how many
 * checks failed; any error counts as one. Temporary folders are removed, and the process exits 1 when anything
 * failed.
 */
export async function runConformance(work: () => Promise<number>): Promise<never> {
  let failed = 0;
  try {
    if (!fs.existsSync(path.join(ROOT, "build", "server.js"))) {
      console.log("--- npm run build");
      if (spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" }).status !== 0) throw new Error("the build failed");
    }
    failed = await work();
  } catch (error) {
    console.error(String(error instanceof Error ? error.message : error));
    failed += 1;
  } finally {
    removeTempDirs();
  }
  process.exit(failed > 0 ? 1 : 0);
}
