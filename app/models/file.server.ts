import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable, Transform } from "node:stream";
import { unstable_composeUploadHandlers, unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import { and, count, desc, eq } from "drizzle-orm";
import sharp from "sharp";
import type { TenantConn } from "../../db/open";
import { files, type FileKind, type StoredFile } from "../../db/tenant";
import { tenantFolder } from "../../db/tenant-pool";
import type { Page } from "../utils/pagination";

/**
 * The file store (docs/architecture.md "Data"): uploads are streamed to a temporary file under the
 * organization's folder with a running size limit, their type is read from their first bytes (never the
 * name or the browser's word), images are re-encoded (which drops anything hidden in them), and only
 * then are they moved into place and recorded. Anything refused leaves no file behind.
 */
export type UploadProblem = "too_large" | "type_not_allowed" | "empty" | "missing";

export class UploadError extends Error {
  /** For `too_large`: the limit that was passed, in bytes (an image's is smaller than any file's). */
  constructor(
    readonly problem: UploadProblem,
    readonly limit: number | null = null,
  ) {
    super(problem);
    this.name = "UploadError";
  }
}

interface Sniffed {
  mime: string;
  kind: FileKind;
  ext: string;
}

/** Magic numbers of the types we accept. HTML, SVG, scripts and anything unknown are refused. */
export function sniffType(head: Buffer): Sniffed | null {
  const starts = (bytes: number[] | string, offset = 0) => {
    const b = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : Buffer.from(bytes);
    return head.length >= offset + b.length && head.subarray(offset, offset + b.length).equals(b);
  };
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: "image/png", kind: "image", ext: "png" };
  if (starts([0xff, 0xd8, 0xff])) return { mime: "image/jpeg", kind: "image", ext: "jpg" };
  if (starts("GIF87a") || starts("GIF89a")) return { mime: "image/gif", kind: "image", ext: "gif" };
  if (starts("RIFF") && starts("WEBP", 8)) return { mime: "image/webp", kind: "image", ext: "webp" };
  if (starts("%PDF-")) return { mime: "application/pdf", kind: "document", ext: "pdf" };
  if (starts("ftyp", 4)) return { mime: "video/mp4", kind: "video", ext: "mp4" };
  if (starts([0x1a, 0x45, 0xdf, 0xa3])) return { mime: "video/webm", kind: "video", ext: "webm" };
  if (starts("ID3") || starts([0xff, 0xfb]) || starts([0xff, 0xf3])) return { mime: "audio/mpeg", kind: "audio", ext: "mp3" };
  if (starts("PK\x03\x04")) return { mime: "application/zip", kind: "archive", ext: "zip" };
  // WebVTT captions (docs/decisions/036-captions.md): a track's file is written by the server from the cues it read.
  if (/^(?:\uFEFF)?WEBVTT(?:[ \t\r\n]|$)/.test(head.subarray(0, 16).toString("utf8")))
    return { mime: "text/vtt", kind: "caption", ext: "vtt" };
  return null;
}

/** The largest caption file (WebVTT or SRT) taken: app/models/captions.server.ts reads it whole. */
export const CAPTION_FILE_MAX_BYTES = 1024 * 1024;

/** A text field beside an uploaded file (a title, an intent). */
const FIELD_MAX_BYTES = 64 * 1024;

export interface UploadLimits {
  maxBytes: number;
  imageMaxBytes: number;
}

interface Pending {
  tempPath: string;
  name: string;
  size: number;
  head: Buffer;
  hash: crypto.Hash;
}

function filesDir(dataDir: string, organizationId: number) {
  return path.join(tenantFolder(dataDir, organizationId), "files");
}

/** A clean file name for Content-Disposition and listings: no paths, no control characters. */
export function cleanName(name: string) {
  const base = path
    .basename(name.replace(/\\/g, "/"))
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
    .replace(/[\u0000-\u001f\u007f"]/g, "")
    .trim();
  return (base || "file").slice(0, 200);
}

/**
 * Reads a multipart request: every file part is streamed to a temporary file and cut off (and removed)
 * the moment it passes the limit; small text fields are kept in memory. Call `cleanup` when done.
 */
export async function receiveUpload(
  request: Request,
  { dataDir, organizationId, limits }: { dataDir: string; organizationId: number; limits: UploadLimits },
) {
  const tempDir = path.join(filesDir(dataDir, organizationId), ".incoming");
  fs.mkdirSync(tempDir, { recursive: true });
  const pending = new Map<string, Pending>();
  const cleanup = () => {
    for (const p of pending.values()) fs.rmSync(p.tempPath, { force: true });
  };
  const fileHandler = async ({ name, filename, data }: { name: string; filename?: string; data: AsyncIterable<Uint8Array> }) => {
    if (!filename) return undefined;
    // One file a request: the limit is per request, not per part.
    if (pending.size > 0) throw new UploadError("too_large", limits.maxBytes);
    const key = crypto.randomBytes(12).toString("hex");
    const tempPath = path.join(tempDir, key);
    const entry: Pending = { tempPath, name: cleanName(filename), size: 0, head: Buffer.alloc(0), hash: crypto.createHash("sha256") };
    pending.set(key, entry);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        entry.size += chunk.length;
        if (entry.head.length < 64) entry.head = Buffer.concat([entry.head, chunk.subarray(0, 64 - entry.head.length)]);
        if (entry.size > limits.maxBytes) return callback(new UploadError("too_large", limits.maxBytes));
        entry.hash.update(chunk);
        callback(null, chunk);
      },
    });
    await pipeline(Readable.from(data), counter, fs.createWriteStream(tempPath, { flags: "wx", mode: 0o600 }));
    return `upload:${key}:${name}`;
  };
  try {
    const formData = await unstable_parseMultipartFormData(
      request,
      unstable_composeUploadHandlers(fileHandler, unstable_createMemoryUploadHandler({ maxPartSize: FIELD_MAX_BYTES })),
    );
    return { formData, pending, cleanup };
  } catch (error) {
    cleanup();
    if (error instanceof UploadError) throw error;
    if ((error as Error)?.name === "MaxPartSizeExceededError") throw new UploadError("too_large", FIELD_MAX_BYTES);
    if ((error as NodeJS.ErrnoException)?.code) throw error; // the disk, not the request
    throw new UploadError("missing"); // a body that is not multipart as it claims
  }
}

/**
 * Checks one received file and stores it: type from the bytes (and allowed for this use), size limits,
 * images re-encoded. The row and the final file appear together or not at all.
 */
export async function storeUpload(
  db: TenantConn,
  {
    dataDir,
    organizationId,
    pending,
    limits,
    allowed,
    uploadedBy,
  }: {
    dataDir: string;
    organizationId: number;
    pending: Pending | undefined;
    limits: UploadLimits;
    allowed?: readonly FileKind[];
    uploadedBy: number | null;
  },
): Promise<StoredFile> {
  if (!pending) throw new UploadError("missing");
  if (pending.size === 0) throw new UploadError("empty");
  const type = sniffType(pending.head);
  if (!type || (allowed && !allowed.includes(type.kind))) throw new UploadError("type_not_allowed");
  if (type.kind === "image" && pending.size > limits.imageMaxBytes) throw new UploadError("too_large", limits.imageMaxBytes);
  if (type.kind === "caption" && pending.size > CAPTION_FILE_MAX_BYTES) throw new UploadError("too_large", CAPTION_FILE_MAX_BYTES);

  let source = pending.tempPath;
  if (type.kind === "image") {
    // Re-encode: what comes out is an image we made, whatever was appended to or hidden in the upload.
    const reencoded = `${pending.tempPath}.clean`;
    try {
      const image = sharp(pending.tempPath, { limitInputPixels: 40_000_000, animated: type.mime === "image/gif" });
      await (type.mime === "image/jpeg"
        ? image.rotate().jpeg({ quality: 88 })
        : type.mime === "image/webp"
          ? image.webp()
          : type.mime === "image/gif"
            ? image.gif()
            : image.png()
      ).toFile(reencoded);
    } catch {
      fs.rmSync(reencoded, { force: true });
      throw new UploadError("type_not_allowed");
    }
    fs.rmSync(pending.tempPath, { force: true });
    source = reencoded;
  }
  const bytes = fs.statSync(source).size;
  // The hash of what is kept: the upload's own (streamed), or the re-encoded image's.
  const sha256 = source === pending.tempPath ? pending.hash.digest("hex") : await hashFile(source);
  const relative = path.join(crypto.randomBytes(1).toString("hex"), `${crypto.randomBytes(16).toString("hex")}.${type.ext}`);
  const target = path.join(filesDir(dataDir, organizationId), relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    return db.transaction((tx) => {
      const row = tx
        .insert(files)
        .values({ kind: type.kind, mime: type.mime, name: pending.name, size: bytes, sha256, path: relative, uploadedBy })
        .returning()
        .get();
      fs.renameSync(source, target); // inside the transaction: if it fails, the row is rolled back
      return row;
    });
  } finally {
    fs.rmSync(source, { force: true });
  }
}

async function hashFile(file: string) {
  const hash = crypto.createHash("sha256");
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest("hex");
}

/** Leftovers of uploads cut short by a crash: swept when the server starts. */
export function sweepIncoming(dataDir: string, organizationId: number) {
  fs.rmSync(path.join(filesDir(dataDir, organizationId), ".incoming"), { recursive: true, force: true });
}

export function fileOnDisk(dataDir: string, organizationId: number, file: StoredFile) {
  const root = filesDir(dataDir, organizationId);
  const full = path.resolve(root, file.path);
  if (!full.startsWith(root + path.sep)) throw new Error("file path escapes the organization's folder");
  return full;
}

export function getFile(db: TenantConn, id: number) {
  return db.select().from(files).where(eq(files.id, id)).get();
}

export function listFiles(db: TenantConn, { kind, page }: { kind?: FileKind; page: Page }) {
  const where = kind ? eq(files.kind, kind) : undefined;
  const items = db
    .select()
    .from(files)
    .where(and(where))
    .orderBy(desc(files.createdAt), desc(files.id))
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .all();
  const total = db.select({ n: count() }).from(files).where(where).get()?.n ?? 0;
  return { items, total };
}

/** Deletes the row, then the bytes (a crash between leaves an orphan file, never a row without bytes). */
export function deleteFile(db: TenantConn, { dataDir, organizationId }: { dataDir: string; organizationId: number }, id: number) {
  const row = db.delete(files).where(eq(files.id, id)).returning().get();
  if (!row) return false;
  fs.rmSync(fileOnDisk(dataDir, organizationId, row), { force: true });
  return true;
}

export function fileView(file: StoredFile) {
  return {
    id: file.id,
    type: file.kind,
    mime: file.mime,
    name: file.name,
    size: file.size,
    sha256: file.sha256,
    created_at: file.createdAt.toISOString(),
  };
}

/**
 * Stores bytes the server made itself (seeded media, rendered documents) as a library file: the type is
 * still read from the bytes, and the row and the file appear together or not at all.
 */
export function storeGeneratedFile(
  db: TenantConn,
  { dataDir, organizationId }: { dataDir: string; organizationId: number },
  { name, data, uploadedBy = null }: { name: string; data: Buffer; uploadedBy?: number | null },
): StoredFile {
  const type = sniffType(data.subarray(0, 16));
  if (!type) throw new UploadError("type_not_allowed");
  const sha256 = crypto.createHash("sha256").update(data).digest("hex");
  const relative = path.join(sha256.slice(0, 2), `${sha256.slice(0, 32)}-${crypto.randomBytes(4).toString("hex")}.${type.ext}`);
  const target = path.join(filesDir(dataDir, organizationId), relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.tmp`;
  fs.writeFileSync(temporary, data);
  try {
    return db.transaction((tx) => {
      const row = tx
        .insert(files)
        .values({ kind: type.kind, mime: type.mime, name: cleanName(name), size: data.length, sha256, path: relative, uploadedBy })
        .returning()
        .get();
      fs.renameSync(temporary, target);
      return row;
    });
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}
