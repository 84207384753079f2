import crypto from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createXapiCredential } from "../../app/models/xapi/credentials.server";
import { writeDocument } from "../../app/models/xapi/documents.server";
import { storeStatements } from "../../app/models/xapi/statements.server";
import { openTenantDatabase } from "../../db/open";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { request, type HttpResponse } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { makeDataDir } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * /profile/data (GDPR Art. 15 and 20; app/models/personal-data.server.ts): a signed-in person downloads what
 * the organization keeps about them as one JSON file. On a copy of the demo, the demo learner of Acme (who
 * has progress, a certificate and LRS statements there), with statements of theirs, of another learner, an
 * open quiz attempt and an LRS state document written first on the organization's database file (before the
 * server opens it): what they get is theirs, all of it, and nothing of anyone else's, and no secret.
 */
const HOST = "acme.localhost";
const LEARNER = "learner@acme.test";

let server: InProcessServer;
/** What the demo's database holds, read before the server starts. */
let known: {
  organizationId: number;
  learnerId: number;
  passwordHash: string;
  progress: number;
  completions: number[];
  certificates: string[];
  other: { id: number; email: string; certificate: string };
  statements: { mbox: string; account: string; other: string };
  attemptId: number;
};
let download: HttpResponse;
let file: any;

/** Every key of a JSON value, at any depth. */
function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}

const statement = (actor: object, activity: string) => ({
  id: crypto.randomUUID(),
  actor,
  verb: { id: "http://adlnet.gov/expapi/verbs/experienced", display: { "en-US": "experienced" } },
  object: { id: `https://content.example.com/personal-data/${activity}` },
});

/** The demo's rows the test compares with, and the test's own rows, on the organization's database file. */
function prepare(dataDir: string) {
  const platform = new Database(path.join(dataDir, "platform.sqlite"), { readonly: true });
  const organizationId = (platform.prepare("select id from organizations where url_prefix = 'acme'").get() as { id: number }).id;
  platform.close();
  const db = openTenantDatabase(tenantDatabaseFile(dataDir, organizationId));
  try {
    const sql = db.$client;
    const learner = sql.prepare("select id, password_hash as hash from users where email = ?").get(LEARNER) as { id: number; hash: string };
    const other = sql
      .prepare(
        `select u.id, u.email, c.public_id as certificate from users u join certificates c on c.user_id = u.id
         where u.role = 'learner' and u.id <> ? order by u.id limit 1`,
      )
      .get(learner.id) as { id: number; email: string; certificate: string };
    const made = createXapiCredential(db, { name: "Personal data test", scope: "all", userId: null });
    if ("error" in made) throw new Error(made.error);
    const options = {
      version: "2.0.0" as const,
      authority: { objectType: "Agent", account: { homePage: `http://${HOST}/xapi`, name: made.key } },
    };
    const mine = statement({ mbox: `mailto:${LEARNER}` }, "by-mbox");
    const account = statement({ account: { homePage: `http://${HOST}`, name: String(learner.id) } }, "by-account");
    const theirs = statement({ mbox: `mailto:${other.email}` }, "someone-else");
    const stored = storeStatements(db, made.credential, [mine, account, theirs], options);
    if (!stored.ok) throw new Error(stored.message);
    const state = {
      kind: "state" as const,
      activityId: "https://content.example.com/personal-data/by-mbox",
      agentKey: `mbox:mailto:${LEARNER}`,
    };
    writeDocument(
      db,
      { ...state, documentId: "bookmark" },
      { contentType: "application/json", body: Buffer.from('{"page":7}') },
      { method: "PUT", requirePrecondition: "never" },
    );
    // An open quiz attempt: its snapshot holds the right answers, which only an ended attempt may show.
    const quizId = Number(sql.prepare("insert into quizzes (title, pass_min) values ('Personal data quiz', 1)").run().lastInsertRowid);
    const questions = [
      {
        id: 1,
        type: "single",
        prompt: "Which one?",
        explanation: "EXPLANATION-WHILE-OPEN",
        options: [
          { id: "a", text: "First", correct: false },
          { id: "b", text: "Second", correct: true },
        ],
        accepted: ["ACCEPTED-WHILE-OPEN"],
      },
    ];
    const attemptId = Number(
      sql
        .prepare(
          "insert into quiz_attempts (quiz_id, user_id, attempt_number, questions, pass_min, started_at) values (?, ?, 1, ?, 1, unixepoch())",
        )
        .run(quizId, learner.id, JSON.stringify(questions)).lastInsertRowid,
    );
    sql
      .prepare("insert into quiz_answers (attempt_id, question_id, choices, updated_at) values (?, 1, '[\"a\"]', unixepoch())")
      .run(attemptId);
    // A cmi5 lesson's registration with a waived unit and a launch, and a learning path the learner is on.
    const lessonId = sql.prepare("select id from lessons order by id limit 1").pluck().get() as number;
    const registrationId = Number(
      sql
        .prepare(
          "insert into package_registrations (lesson_id, user_id, registration, started_at) values (?, ?, 'b7f0c1de-0000-4000-8000-000000000001', unixepoch())",
        )
        .run(lessonId, learner.id).lastInsertRowid,
    );
    sql
      .prepare(
        "insert into cmi5_au_states (registration_id, au_id, waived_reason) values (?, 'https://example.test/au/1', 'Done elsewhere')",
      )
      .run(registrationId);
    sql
      .prepare(
        "insert into package_launches (registration_id, au_id, session_id, launch_mode, fetch_token_hash, launched_at) values (?, 'https://example.test/au/1', 'b7f0c1de-0000-4000-8000-000000000002', 'Normal', 'FETCH-HASH-SECRET', unixepoch())",
      )
      .run(registrationId);
    const pathId = Number(sql.prepare("insert into learning_paths (title, published) values ('Starter path', 1)").run().lastInsertRowid);
    sql
      .prepare("insert into path_enrolments (path_id, user_id, source, enrolled_at) values (?, ?, 'assigned', unixepoch())")
      .run(pathId, learner.id);
    const column = (query: string, ...params: unknown[]) =>
      sql
        .prepare(query)
        .pluck()
        .all(...params);
    return {
      organizationId,
      learnerId: learner.id,
      passwordHash: learner.hash,
      progress: column("select id from lesson_progress where user_id = ?", learner.id).length,
      completions: column("select course_id from course_completions where user_id = ? order by course_id", learner.id) as number[],
      certificates: column("select public_id from certificates where user_id = ? order by public_id", learner.id) as string[],
      other,
      statements: { mbox: mine.id, account: account.id, other: theirs.id },
      attemptId,
    };
  } finally {
    db.$client.close();
  }
}

beforeAll(async () => {
  const dataDir = makeDataDir();
  known = prepare(dataDir);
  server = await startInProcess({ dataDir });
  const token = insertSession(server, { organizationId: known.organizationId }, { email: LEARNER, kind: "web" });
  download = await request(server.port, HOST, "/profile/data", { headers: { Cookie: await cookieFor(token) } });
  file = JSON.parse(download.body);
});
afterAll(async () => {
  await server?.stop();
});

describe("/profile/data", () => {
  it("is a download of pretty-printed JSON, kept by no cache", () => {
    expect(download.status).toBe(200);
    expect(download.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(download.headers["content-disposition"]).toMatch(/^attachment; filename="acme-academy-my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(download.headers["cache-control"]).toBe("no-store");
    expect(download.body).toContain('\n  "profile": {\n    "id": ');
    expect(file.format).toBe("lectern-personal-data/1");
    expect(file.organization.name).toBe("Acme Academy");
  });

  it("holds the person's own profile, progress and certificates", () => {
    expect(file.profile).toMatchObject({ id: known.learnerId, email: LEARNER, role: "learner" });
    expect(file.progress.lessons).toHaveLength(known.progress);
    expect(known.progress).toBeGreaterThan(0);
    expect(file.progress.course_completions.map((c: { course_id: number }) => c.course_id).sort()).toEqual(known.completions);
    expect(file.certificates.map((c: { certificate_id: string }) => c.certificate_id).sort()).toEqual(known.certificates);
    expect(known.certificates.length).toBeGreaterThan(0);
    expect(file.certificates[0].verification_url).toMatch(/\/certificates\/verify\/[A-Z0-9-]+$/);
    expect(file.groups.length).toBeGreaterThan(0);
    expect(file.sign_in.devices.length).toBeGreaterThan(0);
  });

  it("holds their xAPI statements, by e-mail and by their account on the organization's host, and their LRS documents", () => {
    const ids = file.xapi.statements.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([known.statements.mbox, known.statements.account]));
    expect(file.xapi.documents).toEqual([expect.objectContaining({ kind: "state", document_id: "bookmark", json: { page: 7 } })]);
  });

  it("holds their xAPI and cmi5 package attempts (units and launches, no launch secret) and their learning paths", () => {
    expect(file.package_attempts).toEqual([
      expect.objectContaining({
        registration: "b7f0c1de-0000-4000-8000-000000000001",
        units: [expect.objectContaining({ unit: "https://example.test/au/1", waived_reason: "Done elsewhere" })],
        launches: [expect.objectContaining({ session_id: "b7f0c1de-0000-4000-8000-000000000002", launch_mode: "Normal", ended_at: null })],
      }),
    ]);
    expect(download.body).not.toContain("FETCH-HASH-SECRET");
    // The demo's two paths the learner is on (scripts/demo/paths.ts), and the one this file assigned.
    expect(file.learning_paths).toEqual([
      expect.objectContaining({ path: "Onboarding path", source: "self" }),
      expect.objectContaining({ path: "Safe and secure at work", source: "self" }),
      expect.objectContaining({ path: "Starter path", source: "assigned", completed_at: null }),
    ]);
  });

  it("shows an open quiz attempt without what tells right from wrong", () => {
    const attempt = file.quiz_attempts.find((a: { id: number }) => a.id === known.attemptId);
    expect(attempt).toMatchObject({ quiz_title: "Personal data quiz", status: "in_progress", score: null });
    expect(attempt.questions[0].answer).toEqual({ choices: ["a"], text: null });
    expect(download.body).not.toContain("ACCEPTED-WHILE-OPEN");
    expect(download.body).not.toContain("EXPLANATION-WHILE-OPEN");
    expect(keysOf(attempt)).not.toContain("correct");
  });

  it("holds nothing of another person", () => {
    expect(download.body).not.toContain(known.other.email);
    expect(download.body).not.toContain(known.statements.other);
    expect(download.body).not.toContain(known.other.certificate);
  });

  it("holds no secret: no password hash, token hash or code secret", () => {
    const keys = keysOf(file);
    expect(keys.filter((k) => /hash|secret|token$/i.test(k))).toEqual([]);
    expect(known.passwordHash).toMatch(/^\$argon2/);
    expect(download.body).not.toContain(known.passwordHash);
    expect(download.body).not.toContain("$argon2");
    // Every session's token hash (a hex SHA-256) would be a 64-hex-digit string: there is none.
    expect(download.body).not.toMatch(/"[0-9a-f]{64}"/);
  });

  it("is for signed-in people: anyone else is sent to sign in, and back here after", async () => {
    const anonymous = await request(server.port, HOST, "/profile/data");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.location).toBe(`/auth/login?${new URLSearchParams({ redirectTo: "/profile/data" })}`);
  });

  it("gives another person their own file, not the learner's", async () => {
    const token = insertSession(server, { organizationId: known.organizationId }, { email: "admin@acme.test", kind: "web" });
    const theirs = await request(server.port, HOST, "/profile/data", { headers: { Cookie: await cookieFor(token) } });
    expect(theirs.status).toBe(200);
    expect(theirs.json().profile).toMatchObject({ email: "admin@acme.test", role: "admin" });
    expect(theirs.body).not.toContain(LEARNER);
    expect(theirs.body).not.toContain(known.statements.mbox);
  });

  it("is offered on the profile's settings as a plain link that downloads it", async () => {
    const token = insertSession(server, { organizationId: known.organizationId }, { email: LEARNER, kind: "web" });
    const page = await request(server.port, HOST, "/profile/settings", { headers: { Cookie: await cookieFor(token) } });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<a href="\/profile\/data" download=""[^>]*>Download my data<\/a>/);
  });
});
