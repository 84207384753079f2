import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { getOrganization } from "../app/models/organization.server";
import { tenantFolder } from "../db/tenant-pool";
import { readConfig } from "../server/config";
import { runningServer } from "../server/pid-file";
import { Platform } from "../server/platform";

/**
 * `npm run restore -- <organization id> <backup folder>`: puts a backup made by `npm run backup` back in
 * place of the organization's folder. The backup must pass `PRAGMA integrity_check` first; the current
 * folder is moved aside (never deleted). It refuses while a server runs on the same data directory
 * (server/pid-file.ts): an open handle would keep serving the old database, and the checkpoint thread,
 * which opens files by name, could write the old log into the new file.
 */
export function restoreOrganization(dataDir: string, organizationId: number, backup: string) {
  const running = runningServer(dataDir);
  if (running !== null) {
    throw new Error(
      `a server is running on ${dataDir} (process ${running}): stop it first (if none is, remove ${path.join(dataDir, "server.pid")})`,
    );
  }
  const db = new Database(path.join(backup, "db.sqlite"), { readonly: true, fileMustExist: true });
  try {
    const check = db.pragma("integrity_check", { simple: true });
    if (check !== "ok") throw new Error(`the backup fails its integrity check: ${String(check)}`);
  } finally {
    db.close();
  }
  const folder = tenantFolder(dataDir, organizationId);
  const staging = `${folder}.restoring`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.cpSync(backup, staging, { recursive: true });
  if (fs.existsSync(folder)) {
    const aside = path.join(dataDir, "deleted", `org-${organizationId}-replaced-${new Date().toISOString().replace(/[:.]/g, "-")}`);
    fs.mkdirSync(path.dirname(aside), { recursive: true });
    fs.renameSync(folder, aside);
  }
  fs.renameSync(staging, folder);
  return folder;
}

if (process.argv[1]?.endsWith("restore.ts")) {
  const id = Number(process.argv[2]);
  const config = readConfig();
  const platform = new Platform(config);
  try {
    if (!Number.isSafeInteger(id) || !getOrganization(platform.db, id) || !process.argv[3]) {
      console.error("Usage: npm run restore -- <organization id> <backup folder>");
      process.exitCode = 2;
    } else {
      console.log(restoreOrganization(config.DATA_DIR, id, path.resolve(process.argv[3])));
      // The platform's copy of the organization's people and counts follows the restored database.
      platform.summaries.regather(id);
    }
  } catch (error) {
    console.error(String(error));
    process.exitCode = 1;
  } finally {
    platform.close();
  }
}
