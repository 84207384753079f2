import { readConfig } from "../server/config";
import { Platform } from "../server/platform";
import { seedDemo } from "./demo";

/**
 * `npm run seed`: seeds the demo organizations into DATA_DIR when it holds none. `npm start` runs it before
 * serving, and so does docker-compose.yml's `demo` service; the server itself never seeds (README "Run in
 * production"). DEMO_NOW (an ISO time) seeds the demo as of that moment instead of now: the test run's
 * template is seeded so, and a test seeds again as of the same moment to check the demo comes out the same.
 */
const platform = new Platform(readConfig());
try {
  const now = process.env.DEMO_NOW ? new Date(process.env.DEMO_NOW) : undefined;
  if (now && Number.isNaN(now.getTime())) throw new Error(`DEMO_NOW is not a time: ${process.env.DEMO_NOW}`);
  const { seeded, hosts } = await seedDemo(platform, { now });
  console.log(seeded ? `Seeded ${hosts.join(", ")}` : "The data directory already has organizations; nothing seeded.");
} finally {
  platform.close();
}
