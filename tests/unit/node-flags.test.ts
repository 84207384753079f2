import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NODE_FLAGS } from "../../server/node-flags";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The server's V8 settings (server/node-flags.ts) are the same wherever it is started. */
describe("the server's Node flags", () => {
  it("are given by npm start, npm run serve and the container image, before the server's file", () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(NODE_FLAGS.length).toBeGreaterThan(0);
    for (const name of ["start", "serve"]) expect(scripts[name]).toContain(`node ${NODE_FLAGS.join(" ")} build/server.js`);
    const dockerfile = fs.readFileSync(path.join(root, "Dockerfile"), "utf8");
    expect(dockerfile).toContain(`CMD ${JSON.stringify(["node", ...NODE_FLAGS, "build/server.js"]).replaceAll(",", ", ")}`);
  });

  it("are flags this Node accepts", async () => {
    const { spawnSync } = await import("node:child_process");
    const run = spawnSync(process.execPath, [...NODE_FLAGS, "-e", "process.exit(0)"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
