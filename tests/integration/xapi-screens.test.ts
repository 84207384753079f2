import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { contentPackages, lessons, users } from "../../db/tenant";
import { parseCourseStructure } from "~/models/packages/cmi5-structure";
import { startLaunch } from "~/models/packages/launches.server";
import { packageContentBase } from "~/models/packages/content-address.server";
import { ACME, basic, statement, withTenantDb, xapi } from "../helpers/xapi";

/**
 * The LRS's screen and its /api calls (issue 47), as plain HTTP: the forms posted as a browser without
 * JavaScript posts them. An organization admin makes a credential, sees its secret once, content sends a
 * statement with it, the admin finds it among the statements, in its JSON and in the CSV, then revokes the
 * credential, which the LRS then refuses. Learners reach none of it.
 */
let server: InProcessServer;
let admin: string;
let learner: string;
let token: string;
const BASE = `/dashboard/organizations/${ACME.id}/lrs`;
const COURSE = parseCourseStructure(
  fs
    .readFileSync(path.join(__dirname, "..", "fixtures", "cmi5", "001-essentials.cmi5.xml"), "utf8")
    .replace(/index\.html\?paramA/, "https://content.example.test/index.html?paramA"),
  { inPackage: false },
);

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: ACME.id }, { email: "admin@acme.test", kind: "web" }));
  learner = await cookieFor(insertSession(server, { organizationId: ACME.id }, { email: "learner@acme.test", kind: "web" }));
  token = insertSession(server, { organizationId: ACME.id }, { email: "admin@acme.test", kind: "api" });
});
afterAll(() => server?.stop());

const page = (path: string, cookie = admin) => request(server.port, ACME.host, path, { headers: { Cookie: cookie } });
const post = (fields: Record<string, string>) => {
  const body = form(fields);
  return request(server.port, ACME.host, BASE, { ...body, headers: { ...body.headers, Cookie: admin, "Sec-Fetch-Site": "same-origin" } });
};

describe("The LRS screen", () => {
  it("makes a credential that shows its secret once, takes a statement, finds it, and stops it when revoked", async () => {
    const made = await post({ intent: "create", name: "Storyline course", scope: "write", version: "1.0.3", days: "7" });
    expect(made.status).toBe(200);
    const key = /<dt>Key<\/dt><dd><code class="secret">([^<]+)<\/code>/.exec(made.body)?.[1];
    const secret = /<dt>Secret<\/dt><dd><code class="secret">([^<]+)<\/code>/.exec(made.body)?.[1];
    expect(key && secret, "the new key and secret on the page").toBeTruthy();
    const listed = await page(BASE);
    expect(listed.body).toContain("Storyline course");
    expect(listed.body, "the secret is shown once").not.toContain(secret!);

    const sent = statement("screen-learner");
    expect(
      (await xapi(server, ACME.host, "PUT", `statements?statementId=${sent.id}`, { auth: basic(key!, secret!), body: sent })).status,
    ).toBe(204);
    const found = await page(`${BASE}/statements?actor=screen-learner%40xapi.test`);
    expect(found.status).toBe(200);
    expect(found.body).toContain(`${BASE}/statements/${sent.id}`);
    const one = await page(`${BASE}/statements/${sent.id}`);
    expect(one.body).toContain("mailto:screen-learner@xapi.test");
    const csv = await page(`${BASE}/statements/export?actor=screen-learner%40xapi.test`);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(new RegExp(`^${sent.id},`));

    const id = /name="id" value="(\d+)"/.exec(listed.body)?.[1];
    const revoked = await post({ intent: "revoke", id: id! });
    expect(revoked.status).toBe(302);
    expect((await xapi(server, ACME.host, "GET", "statements", { auth: basic(key!, secret!) })).status).toBe(401);
  });

  it("refuses a form without a name or with a lifetime past a year, making nothing", async () => {
    const before = (await page(BASE)).body.match(/name="id"/g)?.length ?? 0;
    expect((await post({ intent: "create", name: "", scope: "all", version: "2.0.0", days: "30" })).status).toBe(400);
    const tooLong = await post({ intent: "create", name: "Long", scope: "all", version: "2.0.0", days: "400" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toContain("Choose a lifetime from 1 to 365 days.");
    expect((await page(BASE)).body.match(/name="id"/g)?.length ?? 0).toBe(before);
  });

  it("shows a wrong filter's message and keeps learners out", async () => {
    const wrong = await page(`${BASE}/statements?verb=not-an-iri&from=yesterday`);
    expect(wrong.body).toContain("The verb must be an address (IRI).");
    expect((await page(BASE, learner)).status).toBe(403);
    expect((await page(`${BASE}/statements`, learner)).status).toBe(403);
    expect((await page(`${BASE}/statements/export`, learner)).status).toBe(403);
  });
});

describe("/api/xapi", () => {
  const api = (method: string, path: string, body?: unknown) =>
    request(server.port, ACME.host, path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it("makes, lists and revokes credentials, and lists statements a page at a time", async () => {
    const made = await api("POST", "/api/xapi/credentials", { name: "Report writer", scope: "all" });
    expect(made.status).toBe(201);
    const credential = JSON.parse(made.body).payload;
    expect(credential).toMatchObject({ name: "Report writer", scope: "all", version: "2.0.0", revoked_at: null });
    expect(credential.secret).toMatch(/^\S{40,}$/);
    const listed = JSON.parse((await api("GET", "/api/xapi/credentials")).body).payload.data;
    expect(listed.find((c: { id: number }) => c.id === credential.id)).not.toHaveProperty("secret");
    expect((await api("POST", "/api/xapi/credentials", { name: "", scope: "everything" })).status).toBe(422);

    const statements = JSON.parse((await api("GET", "/api/xapi/statements")).body).payload;
    expect(statements.data.length).toBeGreaterThan(0);
    expect(statements.data[0]).toHaveProperty("verb");
    expect((await api("GET", "/api/xapi/statements?verb=not-an-iri")).status).toBe(422);

    // A token that may only manage credentials cannot make one that reads or records more than it may.
    const limited = JSON.parse((await api("POST", "/api/api/tokens", { name: "LRS only", capabilities: ["manage:xapi"] })).body).payload
      .token;
    const narrow = await request(server.port, ACME.host, "/api/xapi/credentials", {
      method: "POST",
      headers: { Authorization: `Bearer ${limited}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Wider", scope: "all" }),
    });
    expect(narrow.status).toBe(422);
    expect(narrow.body).toContain("read:xapi");
    expect(JSON.parse((await api("DELETE", `/api/xapi/credentials/${credential.id}`)).body).payload).toEqual({
      id: credential.id,
      revoked: true,
    });
    expect((await xapi(server, ACME.host, "GET", "statements", { auth: basic(credential.key, credential.secret) })).status).toBe(401);
  });
});

describe("A cmi5 launch's fetch address", () => {
  it("answers its token once to a POST from any origin, then cmi5's error 1; an unknown one error 2", async () => {
    const { url } = withTenantDb(server, ACME.id, (db) => {
      const lesson = db.select().from(lessons).orderBy(lessons.id).get()!;
      const learner = db.select().from(users).where(eq(users.email, "learner@acme.test")).get()!;
      const pkg = db
        .insert(contentPackages)
        .values({
          lessonId: lesson.id,
          kind: "cmi5",
          title: "P",
          folder: null,
          structure: COURSE,
          fileCount: 0,
          unpackedBytes: 0,
          uploadedBy: null,
        })
        .returning()
        .get();
      return startLaunch(
        db,
        { pkg, lesson, userId: learner.id },
        { origin: `http://${ACME.host}`, contentBase: "https://content.example.test/", returnURL: "/" },
      );
    });
    const fetchPath = new URL(new URL(url).searchParams.get("fetch")!).pathname;
    const post = () => request(server.port, ACME.host, fetchPath, { method: "POST", headers: { Origin: "https://content.example.test" } });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers["access-control-allow-origin"]).toBe("*");
    const token = JSON.parse(first.body)["auth-token"];
    const credential = (await xapi(server, ACME.host, "GET", "statements", { auth: `Basic ${token}` })).status;
    expect(credential).toBe(200);
    // The AU reads its launch data, served as bytes that never render as a page here, and may not change it.
    const launchParams = new URL(url).searchParams;
    const state = `activities/state?${new URLSearchParams({
      activityId: launchParams.get("activityId")!,
      agent: launchParams.get("actor")!,
      registration: launchParams.get("registration")!,
      stateId: "LMS.LaunchData",
    })}`;
    const launchData = await xapi(server, ACME.host, "GET", state, { auth: `Basic ${token}` });
    expect(launchData.status).toBe(200);
    expect(JSON.parse(launchData.body)).toMatchObject({ launchMode: "Normal" });
    expect(launchData.headers["content-security-policy"]).toContain("sandbox");
    expect(launchData.headers["content-disposition"]).toBe("attachment");
    expect((await xapi(server, ACME.host, "PUT", state, { auth: `Basic ${token}`, body: { launchMode: "Browse" } })).status).toBe(403);
    expect(JSON.parse((await post()).body)).toMatchObject({ "error-code": "1" });
    expect(
      JSON.parse((await request(server.port, ACME.host, "/xapi/fetch/unknown-token-0000000000", { method: "POST" })).body),
    ).toMatchObject({ "error-code": "2" });
    expect((await request(server.port, ACME.host, fetchPath)).status).toBe(405);
  });
});

describe("A package's files on the content origin", () => {
  it("are served to a learner who may open the lesson, with a CSP that reaches the LRS alone, and never with a SCORM token", async () => {
    const CONTENT = `${ACME.id}.scorm.localhost:${server.port}`;
    const { lessonId, userId, packageId, folder } = withTenantDb(server, ACME.id, (db) => {
      const lesson = db.select().from(lessons).where(eq(lessons.kind, "text")).orderBy(lessons.id).get()!;
      const learner = db.select().from(users).where(eq(users.email, "learner@acme.test")).get()!;
      db.delete(contentPackages).where(eq(contentPackages.lessonId, lesson.id)).run();
      const pkg = db
        .insert(contentPackages)
        .values({
          lessonId: lesson.id,
          kind: "cmi5",
          title: "P",
          folder: "a".repeat(24),
          structure: COURSE,
          fileCount: 1,
          unpackedBytes: 9,
          uploadedBy: null,
        })
        .returning()
        .get();
      return { lessonId: lesson.id, userId: learner.id, packageId: pkg.id, folder: pkg.folder! };
    });
    const dir = path.join(server.dataDir, `org-${ACME.id}`, "scorm", folder);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "index.html"), "<p>AU</p>");
    // The server's own signer: its key is the data directory's (server/platform.ts).
    const secret = fs.readFileSync(path.join(server.dataDir, "secret.key"));
    const signer = {
      signValue: (purpose: string, value: string) => crypto.createHmac("sha256", secret).update(`${purpose}:${value}`).digest("base64url"),
      verifyValue: () => false,
    };
    const base = packageContentBase(signer, {
      contentOrigin: `http://${CONTENT}`,
      organizationId: ACME.id,
      lessonId,
      userId,
      packageId,
      preview: false,
    });
    const file = await request(server.port, CONTENT, `${new URL(base).pathname}index.html`);
    expect(file.status).toBe(200);
    expect(file.body).toBe("<p>AU</p>");
    expect(file.headers["content-security-policy"]).toContain(`connect-src 'self' http://${ACME.host}:${server.port}/xapi/`);
    const scormToken = new URL(base).pathname.replace("/c/", "/p/");
    expect((await request(server.port, CONTENT, `${scormToken}index.html`)).status).toBe(404);
    expect((await request(server.port, CONTENT, `${new URL(base).pathname}../../etc/passwd`)).status).toBe(404);
  });
});
