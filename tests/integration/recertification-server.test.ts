import path from "node:path";
import Database from "better-sqlite3";
import { createCookie } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewerOfMember } from "../../app/access/viewer";
import { createAssignment } from "../../app/models/assignment.server";
import { certificateDay } from "../../app/models/certificate-html.server";
import { createCourse } from "../../app/models/course.server";
import { membershipsOf } from "../../app/models/group-members.server";
import { completeLesson } from "../../app/models/learning.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { createUser, getUser } from "../../app/models/user.server";
import { openTenantDatabase } from "../../db/open";
import { lessons, users } from "../../db/tenant";
import { api, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { makeDataDir, startServer, type RunningServer } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

subscribeLearningEvents();

/**
 * Recertification (issue 34) through the real server: the re-assignment job, queued by the server's own
 * schedule at start, re-assigns each person once even when the server is killed in the middle and started
 * again; the public verification page says "Valid until" and "Expired on" in the page's language; /api's
 * certificate has its expiry; a learner takes an expired course again without JavaScript; the course form
 * and /api take the course's validity, with translated errors.
 */
const ACME = "acme.localhost";
const DAY = 86_400_000;
let server: RunningServer;
let dataDir: string;
let courseId: number;
const ids: Record<string, number> = {};
const certificates: Record<string, { publicId: string; id: number; expiresOn: string }> = {};

const tenantFile = () => path.join(dataDir, "org-1", "db.sqlite");
function read<T>(sql: string, ...params: unknown[]) {
  const db = new Database(tenantFile(), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const page = (p: string, headers: Record<string, string> = {}) => request(server.port, ACME, p, { headers });
async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  // Acme (organization 1 of the demo) gets a course valid 12 months, completed by five people at moments
  // relative to now: three assigned and due for re-assignment (expiring in about 25 days), one expired
  // and never assigned, one valid for most of a year.
  dataDir = makeDataDir();
  const db = openTenantDatabase(tenantFile());
  try {
    const now = Date.now();
    courseId = createCourse(db, {
      title: "Ladder safety",
      description: "",
      type: "series",
      published: true,
      allowCertificates: true,
      validityMonths: 12,
      reassignDaysBefore: 30,
      position: 99,
    }).id;
    const lesson = db.insert(lessons).values({ courseId, title: "Three points of contact", kind: "text", position: 0 }).returning().get();
    const admin = getUser(db, db.select().from(users).where(eq(users.email, "admin@acme.test")).get()!.id)!;
    const adminViewer = viewerOfMember({ organization: null, db, language: "en" }, admin, membershipsOf(db, admin.id));
    for (const [name, daysAgo, assigned] of [
      ["p1", 340, true],
      ["p2", 340, true],
      ["p3", 340, true],
      ["old", 400, false],
      ["fresh", 60, false],
    ] as const) {
      const at = new Date(now - daysAgo * DAY);
      ids[name] = (await createUser(db, { email: `${name}@recert.test`, firstName: name, lastName: "Recert", role: "learner" })).id;
      if (assigned) {
        const made = createAssignment(
          db,
          adminViewer,
          { courseId, target: { kind: "person", userId: ids[name] }, due: { kind: "days", days: 30 } },
          new Date(at.getTime() - DAY),
        );
        if (!made.ok) throw new Error(made.message);
      }
      completeLesson(db, { userId: ids[name], lesson, now: at });
      const c = db.$client
        .prepare("select id, public_id as publicId, expires_on as expiresOn from certificates where user_id = ? and course_id = ?")
        .get(ids[name], courseId) as { id: number; publicId: string; expiresOn: string };
      certificates[name] = c;
    }
  } finally {
    db.$client.close();
  }
  // Each step of the job waits, so that the server can be stopped in the middle of it.
  server = await startServer({ dataDir, env: { JOB_STEP_DELAY_MS: "1500" } });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const ours = (table: string) => read<{ user_id: number }>(`select user_id from ${table} where course_id = ? order by user_id`, courseId);

describe("the re-assignment job", () => {
  it("re-assigns the three assigned people once each, across a restart in the middle, due on their expiry day", async () => {
    await until("the first re-assignment", () => (ours("recertifications").length >= 1 ? true : undefined));
    server.process.kill("SIGKILL");
    await new Promise((r) => server.process.once("exit", r));
    expect(ours("recertifications").length).toBeLessThan(3);
    const [job] = read<{ status: string }>("select status from jobs where kind = 'recertification.reassign'");
    expect(job.status).toBe("running");

    server = await startServer({ dataDir });
    await until("the job to finish", () =>
      read<{ status: string }>("select status from jobs where kind = 'recertification.reassign'").every((j) => j.status === "done")
        ? true
        : undefined,
    );
    expect(read("select count(*) as n from jobs where kind = 'recertification.reassign'")).toEqual([{ n: 1 }]);
    expect(ours("recertifications").map((r) => r.user_id)).toEqual([ids.p1, ids.p2, ids.p3]);
    const people = read<{ user_id: number; cycle: number; due_on: string; completed_at: number | null }>(
      "select ap.user_id, ap.cycle, ap.due_on, ap.completed_at from assignment_people ap join assignments a on a.id = ap.assignment_id where a.course_id = ? order by ap.user_id",
      courseId,
    );
    expect(people).toEqual(
      ["p1", "p2", "p3"].map((name) => ({ user_id: ids[name], cycle: 2, due_on: certificates[name].expiresOn, completed_at: null })),
    );
    // Neither the expired person (never assigned) nor the valid one was re-assigned.
    expect(
      read("select user_id from course_completions where course_id = ? and renewal_started_at is not null order by user_id", courseId),
    ).toEqual([ids.p1, ids.p2, ids.p3].map((user_id) => ({ user_id })));
  }, 40_000);
});

describe("the certificate's validity", () => {
  it("the public verification page says Valid until before the expiry day and Expired on after it, in the page's language", async () => {
    const valid = await page(`/certificates/verify/${certificates.fresh.publicId}`);
    expect(valid.status).toBe(200);
    expect(valid.body).toContain('data-state="valid"');
    expect(valid.body).toContain(`Valid until ${certificateDay(certificates.fresh.expiresOn, "en")}`);
    const expired = await page(`/certificates/verify/${certificates.old.publicId}`);
    expect(expired.body).toContain('data-state="expired"');
    expect(expired.body).toContain(`Expired on ${certificateDay(certificates.old.expiresOn, "en")}`);
    const polish = await page(`/certificates/verify/${certificates.old.publicId}`, {
      Cookie: (await createCookie("lng", { path: "/" }).serialize("pl")).split(";")[0],
    });
    expect(polish.body).toContain(`Wygasł ${certificateDay(certificates.old.expiresOn, "pl")}`);
  });

  it("/api's certificate says when it expires", async () => {
    const token = insertSession(server, { organizationId: 1 }, { email: "old@recert.test", kind: "api" });
    const res = await api(server, ACME, "GET", `certificates/${certificates.old.id}`, { token });
    expect(res.status, res.body).toBe(200);
    const reply = res.json().payload;
    expect(reply).toMatchObject({ expires_on: certificates.old.expiresOn, expired: true });
    // The instant the last valid day ends in Copenhagen (Acme's zone).
    expect(new Date(reply.expires_at).toLocaleString("sv-SE", { timeZone: "Europe/Copenhagen" })).toBe(
      `${new Date(Date.parse(`${certificates.old.expiresOn}T12:00:00Z`) + DAY).toISOString().slice(0, 10)} 00:00:00`,
    );
  });
});

describe("the learner's side (no JavaScript)", () => {
  it("lists certificates with their validity and takes an expired course again", async () => {
    const old = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "old@recert.test", kind: "web" }));
    const list = await page("/profile/certificates", { Cookie: old });
    expect(list.body).toContain(`Expired on ${certificateDay(certificates.old.expiresOn, "en")}`);
    const before = await page(`/courses/${courseId}`, { Cookie: old });
    expect(before.body).toContain('data-testid="retake"');
    const retake = await postForm(server, ACME, `/courses/${courseId}`, { intent: "retake" }, old);
    expect(retake.status).toBe(302);
    const after = await page(`/courses/${courseId}`, { Cookie: old });
    expect(after.body).not.toContain('data-testid="retake"');
    expect(after.body).toContain("Complete the course again to renew it.");
    expect(read("select completed_at from lesson_progress where user_id = ?", ids.old)).toEqual([{ completed_at: null }]);

    const fresh = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "fresh@recert.test", kind: "web" }));
    const valid = await page("/profile/certificates", { Cookie: fresh });
    expect(valid.body).toContain(`Valid until ${certificateDay(certificates.fresh.expiresOn, "en")}`);
    // Not expired: nothing to take again.
    expect((await postForm(server, ACME, `/courses/${courseId}`, { intent: "retake" }, fresh)).status).toBe(409);
  });
});

describe("the course's validity setting", () => {
  it("is saved by the course form without JavaScript, with translated errors", async () => {
    const admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
    const edit = `/dashboard/organizations/1/courses/${courseId}`;
    const fields = { intent: "save", title: "Ladder safety", type: "series", published: "on", allow_certificates: "on" };
    const shown = await page(edit, { Cookie: admin });
    expect(shown.body).toContain('name="validity_months"');
    const notNumber = await postForm(server, ACME, edit, { ...fields, validity_months: "a year", reassign_days_before: "30" }, admin);
    expect(notNumber.status).toBe(400);
    expect(notNumber.body).toContain("Enter a number.");
    const tooEarly = await postForm(server, ACME, edit, { ...fields, validity_months: "1", reassign_days_before: "40" }, admin);
    expect(tooEarly.status).toBe(400);
    expect(tooEarly.body).toContain("Choose fewer days than the completion is valid for.");
    const saved = await postForm(server, ACME, edit, { ...fields, validity_months: "24", reassign_days_before: "45" }, admin);
    expect(saved.status).toBe(302);
    expect(read("select validity_months, reassign_days_before from courses where id = ?", courseId)).toEqual([
      { validity_months: 24, reassign_days_before: 45 },
    ]);
    // Empty: completions never expire.
    expect((await postForm(server, ACME, edit, { ...fields, validity_months: "", reassign_days_before: "30" }, admin)).status).toBe(302);
    expect(read("select validity_months from courses where id = ?", courseId)).toEqual([{ validity_months: null }]);
  });

  it("is part of /api's course, as OpenAPI says", async () => {
    const token = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    const put = await api(server, ACME, "PUT", `courses/${courseId}`, { token, body: { validity_months: 6, reassign_days_before: 14 } });
    expect(put.status, put.body).toBe(200);
    expect(put.json().payload).toMatchObject({ validity_months: 6, reassign_days_before: 14 });
    const refused = await api(server, ACME, "PUT", `courses/${courseId}`, {
      token,
      body: { validity_months: 1, reassign_days_before: 60 },
    });
    expect(refused.status).toBe(422);
    const spec = (await request(server.port, ACME, "/api/openapi.json")).body;
    expect(spec).toContain("validity_months");
    expect(spec).toContain("expires_at");
  });
});
