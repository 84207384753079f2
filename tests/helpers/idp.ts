import path from "node:path";
import Database from "better-sqlite3";
import { makeSecretBox } from "../../app/models/sso/seal.server";
import type { ServerAddress } from "./server";

export { startIdp, type RunningIdp, type TamperMode } from "../../scripts/idp/provider";

/** The server key the SSO tests run the server with, so tests can seal a driver's secret as it would. */
export const TEST_SECRET_KEY = "sso-test-secret-key-0123456789abcdef-0123456789";

export interface DriverRow {
  slug: string;
  kind?: "oidc" | "oauth2";
  label?: string;
  issuer?: string | null;
  authorizationUrl?: string | null;
  tokenUrl?: string | null;
  userinfoUrl?: string | null;
  clientId: string;
  clientSecret: string;
  scopes?: string;
  createUsers?: boolean;
  defaultRole?: "learner" | "admin";
  managedExternally?: boolean;
  linkByEmail?: boolean;
  enabled?: boolean;
}

/** Writes a driver into an organization's database as the settings screen would (secret sealed). */
export function insertDriver(server: ServerAddress, organizationId: number, row: DriverRow) {
  const db = new Database(path.join(server.dataDir, `org-${organizationId}`, "db.sqlite"));
  try {
    db.pragma("busy_timeout = 5000");
    const sealed = makeSecretBox(Buffer.from(TEST_SECRET_KEY)).seal(row.clientSecret, `sso:org-${organizationId}`);
    return db
      .prepare(
        `insert into sso_drivers (slug, kind, label, enabled, issuer, authorization_url, token_url, userinfo_url, client_id,
           client_secret_sealed, scopes, create_users, default_role, managed_externally, link_by_email)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        row.slug,
        row.kind ?? "oidc",
        row.label ?? `Continue with ${row.slug}`,
        row.enabled === false ? 0 : 1,
        row.issuer ?? null,
        row.authorizationUrl ?? null,
        row.tokenUrl ?? null,
        row.userinfoUrl ?? null,
        row.clientId,
        sealed,
        row.scopes ?? "openid email profile",
        row.createUsers ? 1 : 0,
        row.defaultRole ?? "learner",
        row.managedExternally === false ? 0 : 1,
        row.linkByEmail ? 1 : 0,
      );
  } finally {
    db.close();
  }
}

/** A little browser for the provider's own pages: a cookie jar, and its plain login and consent forms. */
export class IdpVisitor {
  #cookies = new Map<string, string>();

  constructor(private readonly issuer: string) {}

  async #fetch(url: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers);
    if (this.#cookies.size) headers.set("Cookie", [...this.#cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return res;
  }

  /**
   * Opens the provider's authorization address, signs in as `login` and consents; returns the address
   * the provider sends the browser back to (not followed).
   */
  async signIn(authorizationUrl: string, login: string): Promise<URL> {
    let url = authorizationUrl;
    let method = "GET";
    let body: string | undefined;
    for (let step = 0; step < 12; step++) {
      const res = await this.#fetch(url, {
        method,
        body,
        headers: body ? { "Content-Type": "application/x-www-form-urlencoded" } : {},
      });
      method = "GET";
      body = undefined;
      if (res.status >= 300 && res.status < 400) {
        const next = new URL(res.headers.get("location")!, url);
        if (!next.href.startsWith(this.issuer)) return next;
        url = next.href;
        continue;
      }
      const html = await res.text();
      if (res.status !== 200) throw new Error(`provider answered ${res.status}: ${html.slice(0, 500)}`);
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form on the provider's page: ${html.slice(0, 500)}`);
      url = new URL(action.replace(/&amp;/g, "&"), url).href;
      method = "POST";
      body = html.includes('name="login"')
        ? new URLSearchParams({ prompt: "login", login, password: "any-password" }).toString()
        : new URLSearchParams({ prompt: "consent" }).toString();
    }
    throw new Error("too many steps at the provider");
  }
}
