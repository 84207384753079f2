import crypto from "node:crypto";

/**
 * Secrets kept at rest (SSO client secrets) are sealed with AES-256-GCM under a key derived (HKDF-SHA256)
 * from the server's key (`SECRET_KEY`, or `<DATA_DIR>/secret.key`). The scope (e.g. `sso:org-3`) is
 * authenticated data: a sealed value copied to another organization does not open there.
 */
export interface SecretBox {
  seal(plain: string, scope: string): string;
  /** The plain text, or null when the value was not sealed by this key for this scope. */
  open(sealed: string, scope: string): string | null;
}

const VERSION = "v1";

export function makeSecretBox(serverKey: Buffer): SecretBox {
  const key = Buffer.from(crypto.hkdfSync("sha256", serverKey, Buffer.alloc(0), "lectern sealed secrets v1", 32));
  return {
    seal(plain, scope) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(scope));
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
    },
    open(sealed, scope) {
      const [version, iv, tag, body] = sealed.split(".");
      if (version !== VERSION || !iv || !tag || body === undefined) return null;
      try {
        const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(Buffer.from(scope));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
      } catch {
        return null;
      }
    },
  };
}
