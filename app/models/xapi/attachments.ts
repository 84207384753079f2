import crypto from "node:crypto";
import type { AttachmentPart } from "./multipart";
import { sameStatement } from "./statement-compare";

/*
 * Whether statements and the parts sent with them agree (docs/decisions/043-learning-record-store.md,
 * "Attachments"): every attachment without a fileUrl has its part, every part is some attachment's, and a
 * signature (a JWS, xAPI 2.0.0 §2.6 / 1.0.3 §2.6) is RS256, RS384 or RS512 over the statement as it was
 * before the signature was attached, and verifies when it carries its certificate.
 */

export const SIGNATURE = "http://adlnet.gov/expapi/attachments/signature";
const ALGORITHMS: Record<string, string> = { RS256: "sha256", RS384: "sha384", RS512: "sha512" };

type Json = Record<string, unknown>;
type Attachment = { usageType?: unknown; contentType?: unknown; sha2?: unknown; fileUrl?: unknown };

const attachmentsOf = (statement: unknown): Attachment[] => {
  const list = (statement as Json | null)?.attachments;
  return Array.isArray(list) ? (list as Attachment[]) : [];
};

/** A message for the first disagreement between `statements` and `parts`, or null when they agree. */
export function checkAttachments(statements: unknown[], parts: AttachmentPart[]): string | null {
  const bySha = new Map(parts.map((p) => [p.sha2, p]));
  const used = new Set<string>();
  for (const statement of statements)
    for (const attachment of attachmentsOf(statement)) {
      const sha2 = typeof attachment.sha2 === "string" ? attachment.sha2.toLowerCase() : null;
      const part = sha2 ? bySha.get(sha2) : undefined;
      if (part) used.add(part.sha2);
      else if (attachment.fileUrl === undefined) return "An attachment without a fileUrl was sent without its part.";
      if (attachment.usageType === SIGNATURE) {
        if (attachment.contentType !== "application/octet-stream") return "A signature must be sent as application/octet-stream.";
        if (!part) return "A signature must be sent with the statement.";
        const problem = checkSignature(statement as Json, attachment, part.data.toString("latin1"));
        if (problem) return problem;
      }
    }
  if (parts.some((p) => !used.has(p.sha2))) return "A part was sent that no attachment names.";
  return null;
}

/** The statement as it was signed: without the signature's own attachment (and no `attachments` left empty). */
function beforeSigning(statement: Json, signature: Attachment): Json {
  const { attachments, ...rest } = statement;
  const others = (attachments as Attachment[]).filter((a) => a !== signature);
  return others.length ? { ...rest, attachments: others } : rest;
}

function checkSignature(statement: Json, attachment: Attachment, jws: string): string | null {
  const pieces = jws.trim().split(".");
  if (pieces.length !== 3 || pieces.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return "The signature is not a JWS in compact form.";
  let header: Json;
  let payload: Json;
  try {
    header = JSON.parse(Buffer.from(pieces[0], "base64url").toString("utf8"));
    payload = JSON.parse(Buffer.from(pieces[1], "base64url").toString("utf8"));
  } catch {
    return "The signature's header or payload is not JSON.";
  }
  const hash = typeof header.alg === "string" ? ALGORITHMS[header.alg] : undefined;
  if (!hash) return "A signature must use RS256, RS384 or RS512.";
  if (!sameStatement(payload, beforeSigning(statement, attachment), []))
    return "The signature's payload is not the statement it is attached to.";
  const chain = header.x5c;
  if (Array.isArray(chain) && typeof chain[0] === "string") {
    try {
      const key = new crypto.X509Certificate(Buffer.from(chain[0], "base64")).publicKey;
      if (key.asymmetricKeyType !== "rsa") return "A signature's certificate must hold an RSA key.";
      const signed = Buffer.from(`${pieces[0]}.${pieces[1]}`);
      if (!crypto.verify(hash, signed, key, Buffer.from(pieces[2], "base64url")))
        return "The signature does not verify with its certificate.";
    } catch {
      return "The signature's certificate cannot be read.";
    }
  }
  return null;
}
