import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { xapiAttachments } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";
import { tenantFolder } from "../../../db/tenant-pool";
import type { AttachmentPart } from "./multipart";

/*
 * Attachments' bytes as files beside the organization's other files (`files/xapi/attachments/<sha2>`;
 * docs/decisions/043-learning-record-store.md, "Attachments"): written to a temporary name before the
 * statements' transaction, renamed into place inside it, so no half file is ever served and a refused batch
 * leaves none behind.
 */

export interface OrganizationFiles {
  dataDir: string;
  organizationId: number;
}
export interface StagedPart extends AttachmentPart {
  temporary: string;
  target: string;
}

const folder = ({ dataDir, organizationId }: OrganizationFiles) =>
  path.join(tenantFolder(dataDir, organizationId), "files", "xapi", "attachments");

/** Writes each part under a temporary name (a part whose hash names no file: its sha2 is lower-case hex). */
export function stageParts(where: OrganizationFiles, parts: AttachmentPart[]): StagedPart[] {
  const dir = folder(where);
  fs.mkdirSync(dir, { recursive: true });
  const staged: StagedPart[] = [];
  try {
    for (const part of parts) {
      if (!/^[0-9a-f]{64,128}$/.test(part.sha2)) throw new Error("an attachment's hash is not hex");
      const target = path.join(dir, part.sha2);
      const temporary = `${target}.${crypto.randomBytes(6).toString("hex")}.tmp`;
      fs.writeFileSync(temporary, part.data);
      staged.push({ ...part, temporary, target });
    }
    return staged;
  } catch (error) {
    discardStaged(staged);
    throw error;
  }
}

/** Inside the statements' transaction: each part's row, and its file moved into place (once per hash). */
export function commitParts(tx: TenantConn, staged: StagedPart[], now = new Date()) {
  for (const part of staged) {
    tx.insert(xapiAttachments)
      .values({ sha2: part.sha2, contentType: part.contentType, length: part.data.length, stored: now.getTime() })
      .onConflictDoNothing()
      .run();
    if (!fs.existsSync(part.target)) fs.renameSync(part.temporary, part.target);
  }
}

/** Removes what `stageParts` wrote and `commitParts` did not move (always call it, after the transaction). */
export function discardStaged(staged: StagedPart[]) {
  for (const part of staged) fs.rmSync(part.temporary, { force: true });
}

/** An attachment's type, length and file, or null when no statement brought it. */
export function attachmentFile(db: TenantConn, where: OrganizationFiles, sha2: string) {
  const row = db.select().from(xapiAttachments).where(eq(xapiAttachments.sha2, sha2.toLowerCase())).get();
  if (!row) return null;
  const file = path.join(folder(where), row.sha2);
  return fs.existsSync(file) ? { contentType: row.contentType, length: row.length, file } : null;
}
