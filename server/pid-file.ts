import fs from "node:fs";
import path from "node:path";

/**
 * `<DATA_DIR>/server.pid`: the running server's process id, written once it listens and removed when it
 * stops. Scripts that must not run beside a server on the same data (a restore swaps an organization's
 * folder under its open database, where the checkpoint thread opens files by name) ask `runningServer`.
 * A file left by a server that died names a process that no longer exists, and counts for nothing.
 */
const fileOf = (dataDir: string) => path.join(dataDir, "server.pid");

export function writePidFile(dataDir: string) {
  const file = fileOf(dataDir);
  fs.writeFileSync(`${file}.tmp`, `${process.pid}\n`);
  fs.renameSync(`${file}.tmp`, file);
}

export function removePidFile(dataDir: string) {
  const file = fileOf(dataDir);
  // Only our own: a second server started on the same folder later wrote its own.
  if (runningServerPid(file) === process.pid) fs.rmSync(file, { force: true });
}

/** The id of a server process running on this data directory, if any. */
export function runningServer(dataDir: string): number | null {
  const pid = runningServerPid(fileOf(dataDir));
  if (pid === null || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

function runningServerPid(file: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}
