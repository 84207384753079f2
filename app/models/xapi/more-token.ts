import type { DeviceSigner } from "../auth/known-device.server";
import type { PageCursor } from "./statement-query.server";

/*
 * The `more` of GET /xapi/statements (docs/decisions/043-learning-record-store.md, "Paging"): the query's
 * parameters and where the next page starts, signed with the platform's secret and bound to the organization
 * and the credential that asked, so a token is neither forged nor handed to another credential.
 */

/** The server's signer (server/platform.ts `signValue`), as the models see it. */
export type Signer = DeviceSigner;

const PURPOSE = "xapi-more";
/**
 * A token past this length is not one of ours: the longest query the statements resource takes (each parameter
 * bounded where it is read: app/xapi/params.ts), signed and in base64url, stays well within it.
 */
const MAX_TOKEN = 65_536;

export interface MoreToken {
  query: Record<string, string>;
  cursor: PageCursor;
}

export function moreToken(signer: Signer, organizationId: number, credentialId: number, { query, cursor }: MoreToken): string {
  const payload = Buffer.from(JSON.stringify({ o: organizationId, c: credentialId, q: query, a: cursor.after, m: cursor.mark })).toString(
    "base64url",
  );
  return `${payload}.${signer.signValue(PURPOSE, payload)}`;
}

/** What a token carries, or null: malformed, forged, or another organization's or credential's. */
export function readMoreToken(signer: Signer, organizationId: number, credentialId: number, token: string): MoreToken | null {
  if (token.length > MAX_TOKEN) return null;
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length || !signer.verifyValue(PURPOSE, payload, signature)) return null;
  try {
    const value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (value.o !== organizationId || value.c !== credentialId) return null;
    if (!Number.isSafeInteger(value.a) || !Number.isSafeInteger(value.m) || !value.q || typeof value.q !== "object") return null;
    const query = Object.fromEntries(Object.entries(value.q).filter((e): e is [string, string] => typeof e[1] === "string"));
    return { query, cursor: { after: value.a, mark: value.m } };
  } catch {
    return null;
  }
}
