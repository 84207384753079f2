import { readConfig } from "../server/config";
import { Platform } from "../server/platform";
import { seedDemo } from "./demo";

/** `npm run seed`: seeds the demo organizations into DATA_DIR when it holds none. */
const platform = new Platform(readConfig());
try {
  const { seeded, hosts } = await seedDemo(platform);
  console.log(seeded ? `Seeded ${hosts.join(", ")}` : "The data directory already has organizations; nothing seeded.");
} finally {
  platform.close();
}
