import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `npm run bench`'s settings, from the environment (README, "Run the tests"; docs/decisions/014-speed.md,
 * "How it is measured").
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const ORGANIZATIONS = Number(process.env.BENCH_ORGANIZATIONS ?? 1000);
export const POOL_SIZE = process.env.BENCH_POOL_SIZE ? Number(process.env.BENCH_POOL_SIZE) : null;
/** `BENCH_ONLY=home,learner`: run only these parts (resolve, home, spread, learner, load, clone, certificates, scorm, captions; compliance and paths within learner); the baseline always runs. */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(",").map((s) => s.trim())) : null;
export const only = (part: string) => !ONLY || ONLY.has(part);
/** `BENCH_PROFILE=<dir>`: the Lectern servers write V8 CPU profiles there (node --cpu-prof) when they stop. */
export const PROFILE_DIR = process.env.BENCH_PROFILE;
