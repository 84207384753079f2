// `npm run build`: `remix build`, tried a second time if the first attempt dies. esbuild 0.17 (which
// Remix v2's classic compiler uses) has been seen to crash now and then with "all goroutines are asleep";
// a real build error fails both attempts and so still fails the build.
import { spawnSync } from "node:child_process";

for (let attempt = 1; attempt <= 2; attempt++) {
  const result = spawnSync("npx", ["remix", "build"], { stdio: "inherit", env: process.env });
  if (result.status === 0) break;
  if (attempt === 1) console.error("remix build failed; trying once more");
  else process.exit(result.status ?? 1);
}

// Then the production server itself (scripts/build-server.mjs), with the same second chance.
for (let attempt = 1; attempt <= 2; attempt++) {
  const result = spawnSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit", env: process.env });
  if (result.status === 0) process.exit(0);
  if (attempt === 1) console.error("server build failed; trying once more");
  else process.exit(result.status ?? 1);
}
