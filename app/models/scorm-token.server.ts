/**
 * Signed, expiring tokens in SCORM content addresses (docs/decisions/020-scorm.md): they name the lesson,
 * the learner and the package, and are handed out only by the player page after its access check.
 */
export interface Signer {
  signValue(purpose: string, value: string): string;
  verifyValue(purpose: string, value: string, signature: string): boolean;
}

export interface ScormToken {
  lessonId: number;
  userId: number;
  packageId: number;
  /** Signed for someone who may preview drafts and locked lessons (write:course). */
  preview: boolean;
  expires: number;
}

export const TOKEN_TTL_SECONDS = 6 * 3600;

/**
 * `purpose`: `scorm` for a SCORM package's addresses (`/p/…`), `package` for an xAPI or cmi5 package's (`/c/…`):
 * a token of one never opens the other.
 */
export type TokenPurpose = "scorm" | "package";

export function signScormToken(
  signer: Signer,
  organizationId: number,
  t: Omit<ScormToken, "expires">,
  ttl = TOKEN_TTL_SECONDS,
  now = Date.now(),
  purpose: TokenPurpose = "scorm",
) {
  // Rounded up to the hour, so reloads within the hour reuse one address (and the browser's cache).
  const expires = Math.ceil((Math.floor(now / 1000) + ttl) / 3600) * 3600;
  const value = `${t.lessonId}.${t.userId}.${t.packageId}.${t.preview ? 1 : 0}.${expires}`;
  return `${value}.${signer.signValue(purpose, `${organizationId}:${value}`)}`;
}

export function verifyScormToken(
  signer: Signer,
  organizationId: number,
  token: string,
  now = Date.now(),
  purpose: TokenPurpose = "scorm",
): ScormToken | null {
  const m = /^(\d{1,10})\.(\d{1,10})\.(\d{1,10})\.([01])\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const value = `${m[1]}.${m[2]}.${m[3]}.${m[4]}.${m[5]}`;
  if (!signer.verifyValue(purpose, `${organizationId}:${value}`, m[6])) return null;
  const expires = Number(m[5]);
  if (expires < Math.floor(now / 1000)) return null;
  return { lessonId: Number(m[1]), userId: Number(m[2]), packageId: Number(m[3]), preview: m[4] === "1", expires };
}
