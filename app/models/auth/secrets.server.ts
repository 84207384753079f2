import crypto from "node:crypto";
import argon2 from "argon2";

/** docs/product.md §5 and §9: at least 6 characters. The upper bound only keeps hashing cheap for huge inputs. */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 1024;

/** OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): about 40 ms here. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string) {
  return argon2.hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(hash: string | null, password: string) {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** 256 random bits, URL-safe: session cookies, API tokens, reset tokens, magic-link codes. */
export function randomToken() {
  return crypto.randomBytes(32).toString("base64url");
}

/** Tokens are stored only as their SHA-256, so a copy of the database does not sign anyone in. */
export function hashToken(token: string) {
  return crypto.createHash("sha256").update(token).digest("hex");
}

export function normalizeEmail(email: string) {
  return email.trim().toLowerCase();
}
