import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, cookieFrom, postForm, tenantDb } from "../helpers/auth";
import { request, type HttpResponse } from "../helpers/http";
import { IdpVisitor, insertDriver, startIdp, TEST_SECRET_KEY, type RunningIdp } from "../helpers/idp";
import { codeFrom, startMailbox, type Mailbox } from "../helpers/mail";
import { startServer, type RunningServer } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

let server: RunningServer;
let idp: RunningIdp;
let mailbox: Mailbox;
const NORDLYS = "nordlys.localhost";
const ACME = "acme.localhost";
let nordlysId: number;
let acmeId: number;

const CLIENT = { client_id: "lectern", client_secret: "lectern-client-secret" };
/** A second client at the same provider, for Acme: each organization registers its own. */
const ACME_CLIENT = { client_id: "lectern-acme", client_secret: "acme-client-secret" };

beforeAll(async () => {
  mailbox = await startMailbox();
  server = await startServer({ env: { SECRET_KEY: TEST_SECRET_KEY, SMTP_URL: mailbox.url } });
  const platform = new Database(path.join(server.dataDir, "platform.sqlite"), { readonly: true });
  const id = (prefix: string) => (platform.prepare("select id from organizations where url_prefix = ?").get(prefix) as { id: number }).id;
  nordlysId = id("nordlys");
  acmeId = id("acme");
  platform.close();
  const uris = (host: string, slugs: string[]) =>
    slugs.flatMap((slug) => [
      `http://${host}:${server.port}/auth/sso/${slug}/callback`,
      `http://${host}:${server.port}/api/auth/sso/${slug}/callback-raw`,
    ]);
  idp = await startIdp({
    clients: [
      { ...CLIENT, redirect_uris: uris(NORDLYS, ["corp", "strict", "linking", "oauth"]) },
      { ...ACME_CLIENT, redirect_uris: uris(ACME, ["corp"]) },
    ],
    unverified: ["unverified"],
  });
  insertDriver(server, nordlysId, { slug: "corp", issuer: idp.issuer, ...secretOf(CLIENT), createUsers: true });
  insertDriver(server, nordlysId, { slug: "strict", issuer: idp.issuer, ...secretOf(CLIENT), createUsers: false });
  insertDriver(server, nordlysId, {
    slug: "linking",
    issuer: idp.issuer,
    ...secretOf(CLIENT),
    linkByEmail: true,
    managedExternally: false,
  });
  insertDriver(server, nordlysId, {
    slug: "oauth",
    kind: "oauth2",
    authorizationUrl: `${idp.issuer}/auth`,
    tokenUrl: `${idp.issuer}/token`,
    userinfoUrl: `${idp.issuer}/me`,
    ...secretOf(CLIENT),
    createUsers: true,
  });
  insertDriver(server, acmeId, { slug: "corp", issuer: idp.issuer, ...secretOf(ACME_CLIENT), createUsers: true });
  insertDriver(server, nordlysId, { slug: "offline", issuer: "http://127.0.0.1:1", clientId: "x", clientSecret: "y" });
});
afterAll(async () => {
  await server?.stop();
  await idp?.close();
  await mailbox?.close();
});

function secretOf(client: { client_id: string; client_secret: string }) {
  return { clientId: client.client_id, clientSecret: client.client_secret };
}

const get = (host: string, p: string, cookie?: string | null) =>
  request(server.port, host, p, { headers: cookie ? { Cookie: cookie } : {} });

/** Starts a sign-in at a driver, as a browser following the button: the provider's address and the cookie. */
async function start(host: string, slug: string, query = "") {
  const res = await get(host, `/auth/sso/${slug}/redirect${query}`);
  expect(res.status, res.body).toBe(302);
  return { authorizationUrl: res.headers.location!, binding: cookieFrom(res, "lectern_sso") };
}

/** The provider's answer, delivered to a host's callback with a cookie. */
const callback = (host: string, answer: URL, cookie: string | null) => get(host, answer.pathname + answer.search, cookie);

function expectRefused(res: HttpResponse, code: string) {
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe(`/auth/login?sso=${code}`);
  expect(cookieFrom(res, "lectern_session")).toBeNull();
}

function person(organizationId: number, email: string) {
  const db = tenantDb(server, organizationId);
  try {
    return db.prepare("select * from users where email = ?").get(email) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

describe("OpenID Connect sign-in in a browser", () => {
  it("starts with PKCE (S256), state and nonce bound to the browser; never shows the secret", async () => {
    const { authorizationUrl, binding } = await start(NORDLYS, "corp");
    const url = new URL(authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("redirect_uri")).toBe(`http://${NORDLYS}:${server.port}/auth/sso/corp/callback`);
    expect(url.href).not.toContain(CLIENT.client_secret);
    expect(binding).toMatch(/^lectern_sso=/);
    const login = await get(NORDLYS, "/auth/login");
    expect(login.body).toContain('href="/auth/sso/corp/redirect"');
    expect(login.body).not.toContain(CLIENT.client_secret);
  });

  it("creates a new person just in time with the default role, managed externally; a second sign-in finds them", async () => {
    const first = await start(NORDLYS, "corp", "?redirectTo=%2Fprofile");
    const answer = await new IdpVisitor(idp.issuer).signIn(first.authorizationUrl, "nina.nilsen");
    expect(answer.pathname).toBe("/auth/sso/corp/callback");
    const res = await callback(NORDLYS, answer, first.binding);
    expect(res.status, res.body).toBe(302);
    expect(res.headers.location).toBe("/profile");
    const session = cookieFrom(res, "lectern_session");
    expect(session).toBeTruthy();
    const created = person(nordlysId, "nina.nilsen@idp.test")!;
    expect(created).toMatchObject({ role: "learner", managed_externally: 1, password_hash: null, first_name: "Nina", last_name: "Nilsen" });
    const profile = await get(NORDLYS, "/profile", session);
    expect(profile.status).toBe(200);
    expect(profile.body).toContain("Nina");

    // Externally managed: the page refuses changes of name and password.
    const edit = await postForm(server, NORDLYS, "/profile?index", { firstName: "Someone", lastName: "Else", language: "" }, session!);
    expect(edit.status).toBe(403);
    const password = await postForm(
      server,
      NORDLYS,
      "/auth/password",
      { currentPassword: "x", password: "newpass1", passwordConfirmation: "newpass1" },
      session!,
    );
    expect(password.status).toBe(403);
    expect(person(nordlysId, "nina.nilsen@idp.test")!.first_name).toBe("Nina");

    const again = await start(NORDLYS, "corp");
    const second = await new IdpVisitor(idp.issuer).signIn(again.authorizationUrl, "nina.nilsen");
    const res2 = await callback(NORDLYS, second, again.binding);
    expect(res2.headers.location).toBe("/auth/redirect");
    const db = tenantDb(server, nordlysId);
    try {
      expect(db.prepare("select count(*) n from users where email = ?").get("nina.nilsen@idp.test")).toEqual({ n: 1 });
      expect(db.prepare("select count(*) n from sso_identities where subject = 'nina.nilsen'").get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it("refuses a forged state, a replayed answer and an answer without the starting browser's cookie", async () => {
    const { authorizationUrl, binding } = await start(NORDLYS, "corp");
    const answer = await new IdpVisitor(idp.issuer).signIn(authorizationUrl, "forger");
    const forged = new URL(answer);
    forged.searchParams.set("state", "forged-state-value");
    expectRefused(await callback(NORDLYS, forged, binding), "state");
    // Another browser (no cookie, or another's) cannot use the real state either; the try spends it.
    expectRefused(await callback(NORDLYS, answer, null), "state");
    expectRefused(await callback(NORDLYS, answer, binding), "state");
    expect(person(nordlysId, "forger@idp.test")).toBeUndefined();

    const fresh = await start(NORDLYS, "corp");
    const good = await new IdpVisitor(idp.issuer).signIn(fresh.authorizationUrl, "forger");
    const other = await start(NORDLYS, "corp");
    expectRefused(await callback(NORDLYS, good, other.binding), "state");
  });

  it("a code is worthless without its PKCE verifier, at the provider and here", async () => {
    const { authorizationUrl, binding } = await start(NORDLYS, "corp");
    const answer = await new IdpVisitor(idp.issuer).signIn(authorizationUrl, "pkce.person");
    const token = await fetch(`${idp.issuer}/token`, {
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Authorization: `Basic ${Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString("base64")}`,
      },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: answer.searchParams.get("code")!,
        redirect_uri: `http://${NORDLYS}:${server.port}/auth/sso/corp/callback`,
      }),
    });
    expect(token.status).toBe(400);
    expect((await token.json()).error).toBe("invalid_grant");

    const again = await start(NORDLYS, "corp");
    const second = await new IdpVisitor(idp.issuer).signIn(again.authorizationUrl, "pkce.person");
    const db = tenantDb(server, nordlysId);
    try {
      db.prepare("update sso_logins set code_verifier = ''").run();
    } finally {
      db.close();
    }
    expectRefused(await callback(NORDLYS, second, again.binding), "state");
    expect(person(nordlysId, "pkce.person@idp.test")).toBeUndefined();
    void binding;
  });

  it.each(["aud", "iss", "expired", "unknown_key", "nonce"] as const)("refuses an ID token with a wrong %s", async (mode) => {
    const { authorizationUrl, binding } = await start(NORDLYS, "corp");
    const answer = await new IdpVisitor(idp.issuer).signIn(authorizationUrl, `tampered.${mode}`);
    idp.tamper.mode = mode;
    try {
      expectRefused(await callback(NORDLYS, answer, binding), "id_token");
    } finally {
      idp.tamper.mode = null;
    }
    expect(person(nordlysId, `tampered.${mode}@idp.test`.replace("_", "_"))).toBeUndefined();
  });

  it("a provider that cannot be reached, or a secret sealed by another key, is answered clearly", async () => {
    expectRefused(await get(NORDLYS, "/auth/sso/offline/redirect"), "unreachable");
    const db = tenantDb(server, nordlysId);
    try {
      // As if SECRET_KEY had changed: the stored secret no longer opens.
      db.prepare("update sso_drivers set client_secret_sealed = 'v1.AAAA.BBBB.CCCC' where slug = 'offline'").run();
    } finally {
      db.close();
    }
    expectRefused(await get(NORDLYS, "/auth/sso/offline/redirect"), "config");
    expectRefused(await get(NORDLYS, "/auth/sso/no-such-driver/redirect"), "unknown_driver");
  });

  it("a callback address without a driver lets the state name it; with another driver's name it is refused", async () => {
    let flow = await start(NORDLYS, "corp");
    let answer = await new IdpVisitor(idp.issuer).signIn(flow.authorizationUrl, "no.driver");
    const res = await get(NORDLYS, `/auth/sso/callback${answer.search}`, flow.binding);
    expect(res.headers.location).toBe("/auth/redirect");
    flow = await start(NORDLYS, "corp");
    answer = await new IdpVisitor(idp.issuer).signIn(flow.authorizationUrl, "no.driver");
    expectRefused(await get(NORDLYS, `/auth/sso/strict/callback${answer.search}`, flow.binding), "state");
  });

  it("shows the reason on the sign-in page, translated", async () => {
    const page = await get(NORDLYS, "/auth/login?sso=state", null);
    expect(page.body).toContain("Login kunne ikke bekræftes");
  });
});

describe("tenants and accounts", () => {
  it("a sign-in started for Acme never signs anyone in to Nordlys", async () => {
    const { authorizationUrl, binding } = await start(ACME, "corp");
    const answer = await new IdpVisitor(idp.issuer).signIn(authorizationUrl, "crossing");
    expect(answer.host).toBe(`${ACME}:${server.port}`);
    expectRefused(await callback(NORDLYS, answer, binding), "state");
    expect(person(nordlysId, "crossing@idp.test")).toBeUndefined();
  });

  it("Acme's two-factor policy applies after the provider: the session waits for the mailed code", async () => {
    const { authorizationUrl, binding } = await start(ACME, "corp");
    const answer = await new IdpVisitor(idp.issuer).signIn(authorizationUrl, "two.factor");
    const res = await callback(ACME, answer, binding);
    expect(res.headers.location).toBe("/auth/2fa/confirm?redirectTo=%2Fauth%2Fredirect");
    const session = cookieFrom(res, "lectern_session");
    expect((await get(ACME, "/profile", session)).headers.location).toBe("/auth/2fa/confirm");
    const mail = await mailbox.next("two.factor@idp.test");
    const confirm = await postForm(
      server,
      ACME,
      "/auth/2fa/confirm?redirectTo=%2Fprofile",
      { intent: "confirm", code: codeFrom(mail) },
      session!,
    );
    expect(confirm.headers.location).toBe("/profile");
    expect((await get(ACME, "/profile", session)).status).toBe(200);
    expect(person(nordlysId, "two.factor@idp.test")).toBeUndefined();
  });

  it("without just-in-time creation, an unknown person is refused", async () => {
    const { authorizationUrl, binding } = await start(NORDLYS, "strict");
    const answer = await new IdpVisitor(idp.issuer).signIn(authorizationUrl, "stranger");
    expectRefused(await callback(NORDLYS, answer, binding), "not_allowed");
    expect(person(nordlysId, "stranger@idp.test")).toBeUndefined();
  });

  it("an e-mail match links only where the admin allowed it and the provider verified the address", async () => {
    // corp does not link: Lars keeps his account, the provider's Lars is refused.
    let flow = await start(NORDLYS, "corp");
    let answer = await new IdpVisitor(idp.issuer).signIn(flow.authorizationUrl, "learner@nordlys.test");
    expectRefused(await callback(NORDLYS, answer, flow.binding), "email_taken");

    // linking allows it, but not for an address the provider does not vouch for.
    const db = tenantDb(server, nordlysId);
    db.prepare("insert into users (email, first_name, last_name, role) values ('unverified@idp.test', 'Una', 'Verified', 'learner')").run();
    db.close();
    flow = await start(NORDLYS, "linking");
    answer = await new IdpVisitor(idp.issuer).signIn(flow.authorizationUrl, "unverified");
    expectRefused(await callback(NORDLYS, answer, flow.binding), "email_taken");

    flow = await start(NORDLYS, "linking");
    answer = await new IdpVisitor(idp.issuer).signIn(flow.authorizationUrl, "learner@nordlys.test");
    const res = await callback(NORDLYS, answer, flow.binding);
    expect(res.headers.location).toBe("/auth/redirect");
    const home = await get(NORDLYS, "/", cookieFrom(res, "lectern_session"));
    expect(home.body).toContain("Lars Larsen");
  });

  it("the plain OAuth2 driver signs in against the same provider's endpoints; new people join its default groups", async () => {
    const db = tenantDb(server, nordlysId);
    const group = db.prepare("insert into groups (name) values ('Field staff') returning id").get() as { id: number };
    db.prepare("update sso_drivers set default_group_ids = ? where slug = 'oauth'").run(JSON.stringify([group.id]));
    db.close();
    const { authorizationUrl, binding } = await start(NORDLYS, "oauth");
    expect(new URL(authorizationUrl).searchParams.get("nonce")).toBeNull();
    const answer = await new IdpVisitor(idp.issuer).signIn(authorizationUrl, "otto.oauth");
    const res = await callback(NORDLYS, answer, binding);
    expect(res.headers.location).toBe("/auth/redirect");
    const otto = person(nordlysId, "otto.oauth@idp.test")!;
    expect(otto).toMatchObject({ first_name: "Otto", role: "learner" });
    const check = tenantDb(server, nordlysId);
    try {
      expect(check.prepare("select group_id, is_admin from group_members where user_id = ?").all(otto.id)).toEqual([
        { group_id: group.id, is_admin: 0 },
      ]);
      expect(check.prepare("select issuer from sso_identities where user_id = ?").get(otto.id)).toEqual({ issuer: `oauth2:${idp.issuer}` });
    } finally {
      check.close();
    }
  });
});

describe("apps", () => {
  it("redirect → provider → callback-raw → callback gives the same token reply as POST auth/login", async () => {
    const started = await api(server, NORDLYS, "POST", "auth/sso/corp/redirect");
    expect(started.status, started.body).toBe(200);
    const { authorization_url, state, redirect_uri } = started.json().payload;
    expect(redirect_uri).toBe(`http://${NORDLYS}:${server.port}/api/auth/sso/corp/callback-raw`);
    expect(started.body).not.toContain(CLIENT.client_secret);
    const answer = await new IdpVisitor(idp.issuer).signIn(authorization_url, "app.user");
    expect(answer.pathname).toBe("/api/auth/sso/corp/callback-raw");
    const raw = await get(NORDLYS, answer.pathname + answer.search);
    expect(raw.status).toBe(200);
    const { code, iss } = raw.json().payload;
    expect(raw.json().payload.state).toBe(state);

    const withoutBinding = await api(server, NORDLYS, "POST", "auth/sso/corp/callback", { body: { code, state, iss } });
    expect(withoutBinding.status).toBe(422);
    const wrongBinding = await api(server, NORDLYS, "POST", "auth/sso/corp/callback", { body: { code, state, iss, binding: "not-it" } });
    expect(wrongBinding.status).toBe(401);
    expect(wrongBinding.json().payload.code).toBe("state");

    // The wrong try spent the state: start again, as an app would.
    const again = (await api(server, NORDLYS, "POST", "auth/sso/corp/redirect")).json().payload;
    const answer2 = await new IdpVisitor(idp.issuer).signIn(again.authorization_url, "app.user");
    const raw2 = (await get(NORDLYS, answer2.pathname + answer2.search)).json().payload;
    const done = await api(server, NORDLYS, "POST", "auth/sso/corp/callback", {
      body: { code: raw2.code, state: raw2.state, iss: raw2.iss, binding: again.binding },
    });
    expect(done.status, done.body).toBe(200);
    const reply = done.json().payload;
    expect(reply).toMatchObject({ token_type: "Bearer", expires_in: 2592000, two_factor_pending: false });
    expect(reply.user).toMatchObject({ email: "app.user@idp.test", managed_externally: true });
    const me = await api(server, NORDLYS, "GET", "auth/user", { token: reply.token });
    expect(me.json().payload.email).toBe("app.user@idp.test");
    // Refusals were logged (by code), never with a secret, a code or a token.
    expect(server.output()).toContain('"msg":"sso sign-in refused"');
    expect(server.output()).not.toContain(CLIENT.client_secret);
    expect(server.output()).not.toContain(raw2.code);
    expect(server.output()).not.toContain(reply.token);
  });
});

describe("turning e-mail and password off", () => {
  it("leaves only the buttons, and refuses passwords on the page and /api", async () => {
    const db = tenantDb(server, nordlysId);
    db.prepare("insert into sso_settings (id, password_login) values (1, 0) on conflict(id) do update set password_login = 0").run();
    db.close();
    try {
      const page = await get(NORDLYS, "/auth/login");
      expect(page.body).toContain('data-testid="sso-corp"');
      expect(page.body).not.toContain('name="password"');
      const post = await postForm(server, NORDLYS, "/auth/login", { email: "learner@nordlys.test", password: "demo1234" });
      expect(post.status).toBe(403);
      expect(cookieFrom(post, "lectern_session")).toBeNull();
      const viaApi = await api(server, NORDLYS, "POST", "auth/login", { body: { email: "learner@nordlys.test", password: "demo1234" } });
      expect(viaApi.status).toBe(403);
    } finally {
      const db2 = tenantDb(server, nordlysId);
      db2.prepare("update sso_settings set password_login = 1").run();
      db2.close();
    }
  });
});

describe("the sign-in methods screen", () => {
  const dashboard = (id: number) => `/dashboard/organizations/${id}/sso`;
  const driverFields = (over: Record<string, string> = {}) => ({
    intent: "save",
    kind: "oidc",
    label: "Settings test",
    slug: "settings-test",
    clientId: "settings-client",
    clientSecret: "top-secret-value",
    scopes: "openid email profile",
    issuer: idp.issuer,
    enabled: "on",
    createUsers: "on",
    defaultRole: "learner",
    ...over,
  });
  const sealedOf = (id: number, slug: string) => {
    const db = tenantDb(server, id);
    try {
      return (db.prepare("select client_secret_sealed s from sso_drivers where slug = ?").get(slug) as { s: string } | undefined)?.s;
    } finally {
      db.close();
    }
  };

  it("adds a provider with a write-only secret, and shows clear errors for bad input", async () => {
    const cookie = await cookieFor(insertSession(server, { organizationId: nordlysId }, { email: "admin@nordlys.test", kind: "web" }));
    const bad = await postForm(
      server,
      NORDLYS,
      `${dashboard(nordlysId)}?index`,
      driverFields({ slug: "Not a slug!", issuer: "ftp://x" }),
      cookie,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Brug små bogstaver, cifre og bindestreger.");
    expect(bad.body).toContain("Angiv en fuld http(s)-adresse.");
    expect(bad.body).not.toContain("top-secret-value");
    expect(sealedOf(nordlysId, "settings-test")).toBeUndefined();

    const added = await postForm(server, NORDLYS, `${dashboard(nordlysId)}?index`, driverFields(), cookie);
    expect(added.status).toBe(302);
    const sealed = sealedOf(nordlysId, "settings-test")!;
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain("top-secret-value");
    const taken = await postForm(server, NORDLYS, `${dashboard(nordlysId)}?index`, driverFields(), cookie);
    expect(taken.body).toContain("En anden udbyder bruger allerede dette navn i adressen.");

    const db = tenantDb(server, nordlysId);
    const { id } = db.prepare("select id from sso_drivers where slug = 'settings-test'").get() as { id: number };
    db.close();
    const page = await get(NORDLYS, `${dashboard(nordlysId)}/${id}`, cookie);
    expect(page.status).toBe(200);
    expect(page.body).toContain("settings-client");
    expect(page.body).not.toContain("top-secret-value");
    // An empty secret on an edit keeps the stored one; a new one replaces it.
    expect(
      (await postForm(server, NORDLYS, `${dashboard(nordlysId)}/${id}`, driverFields({ clientSecret: "", label: "Renamed" }), cookie))
        .status,
    ).toBe(302);
    expect(sealedOf(nordlysId, "settings-test")).toBe(sealed);
    expect(
      (await postForm(server, NORDLYS, `${dashboard(nordlysId)}/${id}`, driverFields({ clientSecret: "another" }), cookie)).status,
    ).toBe(302);
    expect(sealedOf(nordlysId, "settings-test")).not.toBe(sealed);
    // A learner gets nowhere near it.
    const learner = await cookieFor(insertSession(server, { organizationId: nordlysId }, { email: "learner@nordlys.test", kind: "web" }));
    expect((await postForm(server, NORDLYS, `${dashboard(nordlysId)}/${id}`, { intent: "delete" }, learner)).status).toBe(403);
    expect((await postForm(server, NORDLYS, `${dashboard(nordlysId)}/${id}`, { intent: "delete" }, cookie)).status).toBe(302);
    expect(sealedOf(nordlysId, "settings-test")).toBeUndefined();
  });

  it("never leaves an organization without a way in", async () => {
    const cookie = await cookieFor(insertSession(server, { organizationId: acmeId }, { email: "admin@acme.test", kind: "web" }));
    const ids = () => {
      const db = tenantDb(server, acmeId);
      try {
        return Object.fromEntries(
          (db.prepare("select slug, id from sso_drivers").all() as Array<{ slug: string; id: number }>).map((r) => [r.slug, r.id]),
        );
      } finally {
        db.close();
      }
    };
    const { corp, "demo-idp": demo } = ids();
    const methods = (on: boolean) =>
      postForm(server, ACME, `${dashboard(acmeId)}?index`, { intent: "methods", ...(on ? { passwordLogin: "on" } : {}) }, cookie);
    expect((await postForm(server, ACME, `${dashboard(acmeId)}/${demo}`, { intent: "delete" }, cookie)).status).toBe(302);
    expect((await methods(false)).status).toBe(302);
    const lastDelete = await postForm(server, ACME, `${dashboard(acmeId)}/${corp}`, { intent: "delete" }, cookie);
    expect(lastDelete.status).toBe(400);
    expect(lastDelete.body).toContain("keep at least one provider on");
    const lastDisable = await postForm(
      server,
      ACME,
      `${dashboard(acmeId)}/${corp}`,
      driverFields({ slug: "corp", clientSecret: "", enabled: "" }),
      cookie,
    );
    expect(lastDisable.status).toBe(400);
    expect(ids().corp).toBe(corp);
    expect((await methods(true)).status).toBe(302);
    expect((await postForm(server, ACME, `${dashboard(acmeId)}/${corp}`, { intent: "delete" }, cookie)).status).toBe(302);
    const needs = await methods(false);
    expect(needs.status).toBe(400);
    expect(needs.body).toContain("Add and turn on an identity provider");
  });
});
