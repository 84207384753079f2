import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";

/**
 * Safe unpacking of a SCORM zip (docs/decisions/020-scorm.md). Two passes over the archive:
 *
 * 1. The central directory only (nothing written): every name is checked (no `..`, no absolute path or
 *    drive letter, no backslash tricks, no control characters, no symlinks or special files), the entry
 *    count and the declared sizes are held to the limits, and the manifest is read into memory.
 * 2. The bytes, streamed into a fresh temporary folder beside the target: the real unpacked size of each
 *    entry and of the whole package, and each entry's compression ratio, are counted while they stream,
 *    so a zip bomb is stopped while it unpacks, not after. The folder is renamed into place only when
 *    everything is written; any failure removes it, so no half-written package is ever visible.
 */
export type UnpackProblem = "not_zip" | "unsafe_path" | "symlink" | "too_many_entries" | "too_large" | "ratio";

export class UnpackError extends Error {
  constructor(
    readonly problem: UnpackProblem,
    readonly detail = "",
  ) {
    super(`${problem}${detail ? `: ${detail}` : ""}`);
    this.name = "UnpackError";
  }
}

export interface UnpackLimits {
  /** Total unpacked bytes (default 1 GiB). */
  maxBytes: number;
  /** Entries in the archive, folders included (default 20,000). */
  maxEntries: number;
  /** Unpacked ÷ compressed size of one entry, checked once an entry passes `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
  /** Bytes of one name. */
  maxNameBytes: number;
}

export const DEFAULT_UNPACK_LIMITS: UnpackLimits = {
  maxBytes: 1024 ** 3,
  maxEntries: 20_000,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
  maxNameBytes: 1024,
};

export interface ZipListing {
  /** Normalised file paths (no folders), as found. */
  files: Set<string>;
  /** Lower-cased paths, for case-insensitive look-ups of manifest references. */
  lower: Map<string, string>;
  declaredBytes: number;
  entryCount: number;
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false, decodeStrings: true },
      (error, zip) => {
        if (error || !zip) reject(error ?? new Error("no zip"));
        else resolve(zip);
      },
    );
  });
}

/** yauzl's own name checks run before ours; map their messages to our problems. */
function yauzlProblem(error: unknown): UnpackError {
  if (error instanceof UnpackError) return error;
  const message = String((error as Error)?.message ?? error);
  if (/absolute path|invalid relative path|invalid characters/i.test(message)) return new UnpackError("unsafe_path", message);
  if (/too many|exceeds|expected|uncompressed/i.test(message) && /size|bytes/i.test(message)) return new UnpackError("too_large", message);
  return new UnpackError("not_zip", message);
}

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;

/** The entry's Unix mode when the archive was made on Unix (0 when unknown). */
function unixMode(entry: yauzl.Entry) {
  const madeBy = entry.versionMadeBy >> 8;
  // 3 = Unix, 19 = OS X; other systems keep no mode in the high bits.
  return madeBy === 3 || madeBy === 19 ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
}

/**
 * A name inside the package, or an error. Folders end with "/". Refuses what could leave the folder or
 * mean something else on some file system: `..`, absolute paths, drive letters, `\`, NUL and control
 * characters, empty segments, and names too long.
 */
export function safeEntryName(raw: string, maxNameBytes = DEFAULT_UNPACK_LIMITS.maxNameBytes): { name: string; folder: boolean } {
  if (Buffer.byteLength(raw) > maxNameBytes) throw new UnpackError("unsafe_path", raw.slice(0, 80));
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) throw new UnpackError("unsafe_path", raw);
  if (raw.startsWith("/") || /^[a-zA-Z]:/.test(raw)) throw new UnpackError("unsafe_path", raw);
  const folder = raw.endsWith("/");
  const segments = (folder ? raw.slice(0, -1) : raw).split("/");
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === "..") throw new UnpackError("unsafe_path", raw);
    // Windows would read "a:b" as a stream, "con" as a device; trailing dots and spaces vanish there.
    if (/[:<>"|?*]/.test(segment) || /[. ]$/.test(segment)) throw new UnpackError("unsafe_path", raw);
  }
  return { name: segments.join("/"), folder };
}

function checkEntry(entry: yauzl.Entry, limits: UnpackLimits) {
  const mode = unixMode(entry);
  const type = mode & S_IFMT;
  if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw new UnpackError("symlink", entry.fileName);
  const named = safeEntryName(entry.fileName, limits.maxNameBytes);
  if (entry.isEncrypted()) throw new UnpackError("not_zip", "encrypted entry");
  return named;
}

async function forEachEntry(zip: yauzl.ZipFile, visit: (entry: yauzl.Entry) => Promise<void> | void) {
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      reject(yauzlProblem(error));
    };
    zip.on("error", fail);
    zip.on("end", () => {
      if (!failed) resolve();
    });
    zip.on("entry", (entry: yauzl.Entry) => {
      Promise.resolve()
        .then(() => visit(entry))
        .then(() => {
          if (!failed) zip.readEntry();
        })
        .catch(fail);
    });
    zip.readEntry();
  });
}

function readStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error || !stream ? reject(yauzlProblem(error)) : resolve(stream)));
  });
}

/**
 * Pass 1: lists the archive without writing anything, and hands back the bytes of the entries asked for
 * (the manifest), up to `maxReadBytes` each.
 */
export async function listZip(
  file: string,
  { limits = DEFAULT_UNPACK_LIMITS, read = [] as string[], maxReadBytes = 8 * 1024 * 1024 } = {},
): Promise<ZipListing & { contents: Map<string, Buffer> }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch (error) {
    throw new UnpackError("not_zip", String((error as Error)?.message ?? error));
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new UnpackError("too_many_entries", String(zip.entryCount));
    const listing: ZipListing = { files: new Set(), lower: new Map(), declaredBytes: 0, entryCount: 0 };
    const contents = new Map<string, Buffer>();
    await forEachEntry(zip, async (entry) => {
      listing.entryCount += 1;
      if (listing.entryCount > limits.maxEntries) throw new UnpackError("too_many_entries");
      const { name, folder } = checkEntry(entry, limits);
      listing.declaredBytes += entry.uncompressedSize;
      if (listing.declaredBytes > limits.maxBytes) throw new UnpackError("too_large");
      if (folder) return;
      const lower = name.toLowerCase();
      if (listing.lower.has(lower)) throw new UnpackError("unsafe_path", `duplicate ${name}`);
      listing.files.add(name);
      listing.lower.set(lower, name);
      if (read.includes(name)) {
        if (entry.uncompressedSize > maxReadBytes) throw new UnpackError("too_large", name);
        const chunks: Buffer[] = [];
        let size = 0;
        const stream = await readStream(zip, entry);
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > maxReadBytes) throw new UnpackError("too_large", name);
          chunks.push(chunk);
        }
        contents.set(name, Buffer.concat(chunks));
      }
    });
    return { ...listing, contents };
  } finally {
    zip.close();
  }
}

/**
 * Pass 2: unpacks into `<parent>/<random>` and returns its folder name. Limits are counted on the bytes
 * that actually come out of the decompressor, whatever the archive declares.
 */
export async function unpackZip(
  file: string,
  parent: string,
  limits: UnpackLimits = DEFAULT_UNPACK_LIMITS,
): Promise<{ folder: string; files: number; bytes: number }> {
  fs.mkdirSync(parent, { recursive: true });
  const folder = crypto.randomBytes(12).toString("hex");
  const temp = path.join(parent, `.incoming-${folder}`);
  const target = path.join(parent, folder);
  fs.mkdirSync(temp, { mode: 0o755 });
  const root = fs.realpathSync(temp);
  let total = 0;
  let files = 0;
  let zip: yauzl.ZipFile | undefined;
  try {
    try {
      zip = await openZip(file);
    } catch (error) {
      throw new UnpackError("not_zip", String((error as Error)?.message ?? error));
    }
    if (zip.entryCount > limits.maxEntries) throw new UnpackError("too_many_entries", String(zip.entryCount));
    let seen = 0;
    const opened = zip;
    await forEachEntry(opened, async (entry) => {
      seen += 1;
      if (seen > limits.maxEntries) throw new UnpackError("too_many_entries");
      const { name, folder: isFolder } = checkEntry(entry, limits);
      const destination = path.resolve(root, ...name.split("/"));
      // Belt and braces: whatever the checks above missed, nothing lands outside the package folder.
      if (!destination.startsWith(root + path.sep)) throw new UnpackError("unsafe_path", name);
      try {
        fs.mkdirSync(isFolder ? destination : path.dirname(destination), { recursive: true });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException)?.code;
        if (code === "EEXIST" || code === "ENOTDIR") throw new UnpackError("unsafe_path", name);
        throw error;
      }
      if (isFolder) return;
      const compressed = Math.max(1, entry.compressedSize);
      let written = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          written += chunk.length;
          total += chunk.length;
          if (total > limits.maxBytes) return callback(new UnpackError("too_large"));
          if (written > limits.ratioFloorBytes && written / compressed > limits.maxRatio) return callback(new UnpackError("ratio", name));
          callback(null, chunk);
        },
      });
      const stream = await readStream(opened, entry);
      try {
        // "wx": never follow or replace anything already there (a folder and a file of one name, say).
        await pipeline(stream, counter, fs.createWriteStream(destination, { flags: "wx", mode: 0o644 }));
      } catch (error) {
        if (error instanceof UnpackError) throw error;
        const code = (error as NodeJS.ErrnoException)?.code;
        if (code === "EEXIST" || code === "ENOTDIR" || code === "EISDIR") throw new UnpackError("unsafe_path", name);
        if (code) throw error; // the disk (full, read-only): not the package's fault
        throw yauzlProblem(error);
      }
      files += 1;
    });
    fs.renameSync(temp, target);
    return { folder, files, bytes: total };
  } catch (error) {
    fs.rmSync(temp, { recursive: true, force: true });
    throw error;
  } finally {
    zip?.close();
  }
}
