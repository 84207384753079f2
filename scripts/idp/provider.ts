import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import Provider, { type ClientMetadata } from "oidc-provider";

/**
 * A real OpenID Connect provider (node-oidc-provider, a certified implementation) for tests and for trying
 * SSO by hand (`npm run dev:idp`). Its sign-in page is the library's development form: any login and any
 * password; the login becomes the subject, and an e-mail address (`<login>@idp.test` unless the login is
 * one) with `email_verified: true`.
 *
 * For tests of refusals the provider can be told to hand out a forged ID token on its next token replies
 * (`tamper.mode`): another audience or issuer, an expired one, one with another nonce, or one signed with a
 * key the provider never published.
 */
export type TamperMode = "aud" | "iss" | "expired" | "unknown_key" | "nonce";

export interface RunningIdp {
  issuer: string;
  port: number;
  tamper: { mode: TamperMode | null };
  close: () => Promise<void>;
}

export interface IdpOptions {
  port?: number;
  host?: string;
  /** The host name in the issuer (what browsers and the server reach it by). */
  publicHost?: string;
  clients: ClientMetadata[];
  /** Logins whose e-mail the provider does not vouch for (`email_verified: false`). */
  unverified?: string[];
}

export async function startIdp({
  port = 0,
  host = "127.0.0.1",
  publicHost = "127.0.0.1",
  clients,
  unverified = [],
}: IdpOptions): Promise<RunningIdp> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid: "lectern-test-idp", alg: "RS256", use: "sig" };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const actualPort = (server.address() as AddressInfo).port;
  const issuer = `http://${publicHost}:${actualPort}`;
  const tamper: RunningIdp["tamper"] = { mode: null };

  const provider = new Provider(issuer, {
    clients,
    jwks: { keys: [signingJwk] },
    cookies: { keys: ["lectern-test-idp-cookie-key-0123456789"] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["given_name", "family_name", "name"],
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      const email = id.includes("@") ? id.toLowerCase() : `${id.toLowerCase()}@idp.test`;
      const local = email.split("@")[0] ?? id;
      const [given = local, family = ""] = local.split(/[._-]/);
      const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
      return {
        accountId: id,
        async claims() {
          return {
            sub: id,
            email,
            email_verified: !unverified.includes(id),
            given_name: cap(given),
            family_name: cap(family),
            name: `${cap(given)} ${cap(family)}`.trim(),
          };
        },
      };
    },
  });
  // The library's development pages warn on every start; they are what this provider is for.
  (provider as unknown as { proxy: boolean }).proxy = false;

  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === "/token" && tamper.mode && body && typeof body === "object" && body.id_token) {
      body.id_token = await forge(body.id_token, tamper.mode, signingJwk, issuer);
    }
  });

  server.on("request", provider.callback());
  return {
    issuer,
    port: actualPort,
    tamper,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Re-signs the provider's own ID token with one thing wrong. */
async function forge(idToken: string, mode: TamperMode, signingJwk: JWK, issuer: string) {
  const claims = decodeJwt(idToken);
  const header = decodeProtectedHeader(idToken);
  const now = Math.floor(Date.now() / 1000);
  if (mode === "aud") claims.aud = "someone-else";
  if (mode === "iss") claims.iss = `${issuer}/not-this-one`;
  if (mode === "nonce") claims.nonce = "another-nonce";
  if (mode === "expired") {
    claims.iat = now - 7200;
    claims.exp = now - 3600;
  }
  let key = await importJWK(signingJwk, "RS256");
  let kid = header.kid;
  if (mode === "unknown_key") {
    key = (await generateKeyPair("RS256")).privateKey;
    kid = "not-published";
  }
  return new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: header.typ, kid }).sign(key);
}
