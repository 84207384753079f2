import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Seeds the demo into `dataDir` as `npm run seed` does (`scripts/seed.ts` in a process of its own), as of
 * `now`: the run's template (tests/setup/demo-template.ts) and the second seeding that
 * tests/integration/demo.test.ts compares with it.
 */
export function seedDemoInto(dataDir: string, now: string) {
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "scripts/seed.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DEMO_NOW: now },
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`seeding the demo failed:\n${seeded.stdout}${seeded.stderr}`);
}
