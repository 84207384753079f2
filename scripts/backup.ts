import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { getOrganization } from "../app/models/organization.server";
import { checkDatabaseFile } from "../db/open";
import { tenantDatabaseFile, tenantFolder } from "../db/tenant-pool";
import { readConfig } from "../server/config";
import { Platform } from "../server/platform";

/**
 * `npm run backup -- <organization id> [target folder]`: one consistent copy of an organization,
 * safe while the server runs. The database is copied with `VACUUM INTO` (a snapshot inside one read
 * transaction; never a copy of the live file), then the files folder is copied beside it. The copy is
 * written under a temporary name and renamed when complete.
 */
export function backupOrganization(dataDir: string, organizationId: number, targetRoot = path.join(dataDir, "backups")) {
  const source = tenantDatabaseFile(dataDir, organizationId);
  checkDatabaseFile(source);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const target = path.join(targetRoot, `org-${organizationId}-${stamp}`);
  const partial = `${target}.partial`;
  fs.mkdirSync(partial, { recursive: true });
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    db.prepare("vacuum into ?").run(path.join(partial, "db.sqlite"));
  } finally {
    db.close();
  }
  const files = path.join(tenantFolder(dataDir, organizationId), "files");
  if (fs.existsSync(files)) {
    fs.cpSync(files, path.join(partial, "files"), { recursive: true, filter: (src) => !path.basename(src).startsWith(".") });
  }
  fs.renameSync(partial, target);
  return target;
}

if (process.argv[1]?.endsWith("backup.ts")) {
  const id = Number(process.argv[2]);
  const config = readConfig();
  const platform = new Platform(config);
  try {
    if (!Number.isSafeInteger(id) || !getOrganization(platform.db, id)) {
      console.error("Usage: npm run backup -- <organization id> [target folder]");
      process.exitCode = 2;
    } else {
      console.log(backupOrganization(config.DATA_DIR, id, process.argv[3] ? path.resolve(process.argv[3]) : undefined));
    }
  } finally {
    platform.close();
  }
}
