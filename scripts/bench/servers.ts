import fs from "node:fs";
import path from "node:path";
import { NODE_FLAGS } from "../../server/node-flags";
import { startProcess, type Server } from "./processes";
import { PROFILE_DIR, ROOT } from "./settings";

/**
 * A server of the bench: Lectern itself (`server/index.ts`, run as in production from the compiled
 * build/server.js, no TypeScript loader) or one of the bench's own scripts (baselines and floors, under tsx).
 */
export async function start(script: string, env: Record<string, string>): Promise<Server> {
  const profile = PROFILE_DIR && script.startsWith("server/") ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(PROFILE_DIR)}`] : [];
  // Lectern runs as in production: the compiled server (npm run build), no TypeScript loader.
  const flags = process.env.BENCH_NODE_FLAGS !== undefined ? process.env.BENCH_NODE_FLAGS.split(" ").filter(Boolean) : NODE_FLAGS;
  // The page floor runs with Lectern's heap settings too, so that its garbage is collected alike.
  const args =
    script === "server/index.ts"
      ? [...flags, "build/server.js"]
      : [...(script.endsWith("baseline-page.ts") ? flags : []), "--import", "tsx", script];
  return startProcess([...profile, ...args], env, ROOT);
}

/** Peak resident memory of a process so far (VmHWM), in MiB. */
export function peakRssMiB(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/VmHWM:\s+(\d+)\s+kB/)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}
