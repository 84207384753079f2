import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp";
import { NODE_FLAGS } from "../../server/node-flags";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * What the request and database helpers (auth.ts, sessions.ts, idp.ts, …) need of a test server, a process
 * (`startServer`) or in this process (tests/helpers/in-process.ts): the port it listens on and its data directory.
 */
export type ServerAddress = Pick<RunningServer, "port" | "dataDir">;

export interface RunningServer {
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** Graceful stop (SIGTERM), waiting for the process to exit. */
  stop: () => Promise<void>;
}

/**
 * A data directory for one server, removed when the test file ends: a copy of the demo seeded once for
 * the whole run (tests/setup/global.ts), or empty with `{ empty: true }` (and the server leaves it so: it
 * never seeds; tests/integration/no-default-accounts.test.ts). The e2e files share their image renders
 * (`shareImageRenders`).
 */
export function makeDataDir({ prefix = "lectern-test-", empty = false }: { prefix?: string; empty?: boolean } = {}) {
  const dir = tempDir(prefix);
  const template = process.env.LECTERN_TEST_TEMPLATE;
  if (!empty && template) {
    fs.cpSync(template, dir, { recursive: true });
    if (process.env.LECTERN_TEST_SHARED_RENDERS) shareImageRenders(dir);
  }
  return dir;
}

/**
 * Links a data directory's image renders (`cache/images`) to one folder for the run, for the e2e project
 * (vitest.config.ts sets LECTERN_TEST_SHARED_RENDERS there). A render's name is its file's id, the first 16 hex
 * digits of the file's SHA-256, the bucket and the width (server/images.ts), so a name means the same pixels in
 * every copy of the demo: the 54 different renders the e2e files ask for are drawn once a run instead of 220
 * times (docs/decisions/006-testing.md). Renders are written whole and renamed into place, so files drawing the
 * same one side by side each leave a whole image. Integration files keep a cache of their own: they look into it.
 */
function shareImageRenders(dataDir: string) {
  const shared = path.join(process.env.TMPDIR!, "image-renders");
  fs.mkdirSync(shared, { recursive: true });
  fs.mkdirSync(path.join(dataDir, "cache"), { recursive: true });
  fs.symlinkSync(shared, path.join(dataDir, "cache", "images"));
}

/**
 * Starts the real server (`node <NODE_FLAGS> build/server.js`, the same command as production; `npm run build` makes
 * it from server/index.ts) on a random port with its own data directory, and waits until it listens.
 */
export async function startServer({
  dataDir = makeDataDir(),
  env = {},
  timeoutMs = 30_000,
}: { dataDir?: string; env?: Record<string, string> } & { timeoutMs?: number } = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(ROOT, "build", "server.js"))) throw new Error("No build/server.js: run `npm run build` first.");
  const child = spawn(process.execPath, [...NODE_FLAGS, "build/server.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PLATFORM_DOMAIN: "localhost",
      LOG_REQUESTS: "false",
      // Tests sign in far more often than people do; the limits have tests of their own.
      RATE_LIMIT_AUTH: "10000",
      RATE_LIMIT_MUTATIONS: "10000",
      // No reminders schedule: a demo copy's assignments would mail people the tests sign in as. Its own
      // test turns it on (tests/integration/reminders.test.ts).
      REMINDERS_EVERY_MINUTES: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), timeoutMs);
    const onData = () => {
      const match = output.match(/"msg":"listening","port":(\d+)/);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off("data", onData);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });

  return {
    port,
    dataDir,
    process: child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Every file under a directory, relative to it, for "nothing new was created" checks. */
export function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** The server's output lines that are not an ordinary log line below error level (a stack on stderr is one). */
export function errorLines(output: string) {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => {
      try {
        const level = (JSON.parse(line) as { level?: unknown }).level;
        return level === "error" || level === "fatal" || (typeof level === "number" && level >= 50);
      } catch {
        return true;
      }
    });
}
