import path from "node:path";
import { seedDemoInto } from "../helpers/seed";

/**
 * The demo, seeded once per run for the projects whose tests start servers (integration, e2e): each
 * server's data directory starts as a copy of it (tests/helpers/server.ts `makeDataDir`). Its moment is
 * passed on, so tests/integration/demo.test.ts can seed again as of it and compare. Runs after
 * tests/setup/global.ts, so the template lives in the run's temporary directory; a second project finds it
 * seeded already.
 */
export default function setup() {
  if (process.env.LECTERN_TEST_TEMPLATE) return;
  const template = path.join(process.env.TMPDIR!, "demo-template");
  const now = new Date().toISOString();
  seedDemoInto(template, now);
  process.env.LECTERN_TEST_TEMPLATE = template;
  process.env.LECTERN_TEST_TEMPLATE_NOW = now;
  return () => {
    delete process.env.LECTERN_TEST_TEMPLATE;
    delete process.env.LECTERN_TEST_TEMPLATE_NOW;
  };
}
