import crypto from "node:crypto";

/*
 * Statements with attachments (xAPI 2.0.0 §4.1.3, 1.0.3 §2.4.11): a `multipart/mixed` body whose first part
 * is the statements' JSON and each other part one attachment's bytes, named by its SHA-2 in
 * `X-Experience-API-Hash` (docs/decisions/043-learning-record-store.md, "Attachments"). Read from a body
 * already held within the request's limit.
 */

export interface AttachmentPart {
  contentType: string;
  sha2: string;
  data: Buffer;
}
export type Multipart = { ok: true; statements: unknown; parts: AttachmentPart[] } | { ok: false; message: string };

/** The boundary of a `multipart/mixed` Content-Type, or null when the type is another or names none. */
export function mixedBoundary(contentType: string | null): string | null {
  const match = /^\s*multipart\/mixed\s*;(.*)$/i.exec(contentType ?? "");
  if (!match) return null;
  const boundary = /(?:^|;)\s*boundary\s*=\s*(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(match[1]);
  return boundary ? (boundary[1] ?? boundary[2]) : null;
}

/** A part's headers (names in lower case) and its bytes. */
function splitPart(part: Buffer): { headers: Map<string, string>; body: Buffer } | null {
  const end = part.indexOf("\r\n\r\n");
  if (end < 0) return null;
  const headers = new Map<string, string>();
  for (const line of part.subarray(0, end).toString("latin1").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) return null;
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: part.subarray(end + 4) };
}

/** Reads a `multipart/mixed` body: the statements' JSON first, then the attachments' parts, each hashed as it claims. */
export function parseMultipart(body: Buffer, boundary: string): Multipart {
  // A delimiter is `--boundary` at the very start or after a line break, never inside a part's bytes.
  const delimiter = Buffer.from(`--${boundary}`);
  const afterBreak = Buffer.from(`\r\n--${boundary}`);
  const pieces: Buffer[] = [];
  let at = body.subarray(0, delimiter.length).equals(delimiter) ? 0 : body.indexOf(afterBreak) + 2;
  if (at < 2 && !body.subarray(0, delimiter.length).equals(delimiter)) return { ok: false, message: "The multipart body has no part." };
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    if (body.subarray(start, start + 2).toString() !== "\r\n")
      return { ok: false, message: "A multipart boundary is not on a line of its own." };
    const next = body.indexOf(afterBreak, start);
    if (next < 0) return { ok: false, message: "The multipart body does not end with its closing boundary." };
    pieces.push(body.subarray(start + 2, next));
    at = next + 2;
  }
  const [first, ...rest] = pieces.map(splitPart);
  if (!first || !/^application\/json\b/i.test(first.headers.get("content-type") ?? ""))
    return { ok: false, message: "The first part must be the statements, as application/json." };
  let statements: unknown;
  try {
    statements = JSON.parse(first.body.toString("utf8"));
  } catch {
    return { ok: false, message: "The statements' part is not JSON." };
  }
  const parts: AttachmentPart[] = [];
  for (const part of rest) {
    const sha2 = part?.headers.get("x-experience-api-hash")?.toLowerCase();
    if (!part || !sha2) return { ok: false, message: "Each attachment part needs an X-Experience-API-Hash header." };
    if (part.headers.has("content-transfer-encoding") && part.headers.get("content-transfer-encoding")!.toLowerCase() !== "binary")
      return { ok: false, message: "Attachment parts must be sent with Content-Transfer-Encoding: binary." };
    if (digest(part.body, sha2.length) !== sha2)
      return { ok: false, message: "An attachment's bytes do not match its X-Experience-API-Hash." };
    parts.push({ contentType: part.headers.get("content-type") ?? "application/octet-stream", sha2, data: part.body });
  }
  return { ok: true, statements, parts };
}

/** The SHA-2 of `data` whose hex has `length` characters (SHA-256, -384 or -512), or null for another length. */
export function digest(data: Buffer, length: number) {
  const algorithm = { 64: "sha256", 96: "sha384", 128: "sha512" }[length];
  return algorithm ? crypto.createHash(algorithm).update(data).digest("hex") : null;
}
