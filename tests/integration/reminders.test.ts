import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewerOfMember } from "../../app/access/viewer";
import { createAssignment } from "../../app/models/assignment.server";
import { createCourse } from "../../app/models/course.server";
import { addMembers, membershipsOf, removeMember } from "../../app/models/group-members.server";
import { createGroup } from "../../app/models/group.server";
import { completeLesson } from "../../app/models/learning.server";
import { createOrganization } from "../../app/models/organization.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";
import { createUser, getUser } from "../../app/models/user.server";
import type { TenantDb } from "../../db/open";
import { lessons } from "../../db/tenant";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { api, cookieFrom, loginPage, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { startMailbox, type Mailbox, type ReceivedMail } from "../helpers/mail";
import { makeDataDir, startServer, type RunningServer } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Reminders by e-mail and weekly digests (issue 34; app/models/reminders.server.ts) against the built server
 * and a real SMTP receiver. Time is driven by the reminders job's own `now` (its payload): the test queues
 * runs "as of" chosen instants while the server is stopped, and the server runs them when it starts, as it
 * resumes any queued job; the schedule (REMINDERS_EVERY_MINUTES) stays off. The same data goes through three
 * starts: failures retried and the first mails; the mails of every kind (the first runs again: nothing
 * new), the last run killed with a mail half sent; and everything again (nothing new, that mail never
 * sent twice).
 *
 * Two organizations in Copenhagen time: Remind (en, sign-in codes by mail) and Nordisk (da, its reminder
 * settings changed on its settings screen: only "before the due date", 5 days ahead).
 */
subscribeLearningEvents();

const DUE = "2026-03-15"; // a Sunday
/** The runs, each an instant (UTC; Copenhagen is UTC+1 in March) with what it should send. */
const RUN = {
  assigned: "2026-03-02T09:00:00Z", // Monday: assigned (refused by the mail server)
  retry: "2026-03-02T09:30:00Z", // the refused ones again, and the rest
  fiveBefore: "2026-03-10T09:00:00Z", // Nordisk: 5 days before
  threeBefore: "2026-03-12T09:00:00Z", // Remind: 3 days before
  dueEarly: "2026-03-15T06:00:00Z", // 07:00 local: too early for the due day's mail
  due: "2026-03-15T09:00:00Z",
  overdue1: "2026-03-16T09:00:00Z", // Monday: overdue week 1, the week's digest
  overdue1Again: "2026-03-17T09:00:00Z",
  overdue2: "2026-03-23T09:00:00Z", // Monday: overdue week 2, digest
  overdue3: "2026-03-30T09:00:00Z", // Monday: overdue week 3, digest (the run that is killed)
};

let dataDir: string;
let mailbox: Mailbox;
let server: RunningServer | undefined;
/** The mail the server was killed in the middle of sending. */
let cut: ReceivedMail;
const org = { remind: 0, nordisk: 0 };
const HOST = "remind.localhost";
const NORDISK = "nordisk.localhost";

/**
 * The test's own connection to an organization's file, opened once and kept until the end. Opened and closed
 * around each look, the test's connection was at times the file's last one: closing it checkpoints and removes the
 * write-ahead log under an exclusive lock, and the server starting meanwhile found the file locked, left that
 * organization's jobs for a second later and ran the other's first, which these tests' order of mails rules out.
 */
const connections = new Map<number, Database.Database>();
function tenant(organizationId: number) {
  let db = connections.get(organizationId);
  if (!db) {
    db = new Database(path.join(dataDir, `org-${organizationId}`, "db.sqlite"));
    db.pragma("busy_timeout = 5000");
    connections.set(organizationId, db);
  }
  return db;
}

/** Queues reminder runs as of these instants, in order, while no server runs. */
function queueRuns(organizationId: number, instants: string[]) {
  const insert = tenant(organizationId).prepare("insert into jobs (kind, status, payload) values ('reminders.send', 'queued', ?)");
  for (const now of instants) insert.run(JSON.stringify({ now }));
}

/** Waits until every queued reminder run of these organizations has finished, and says how each ended. */
async function runsFinished(...organizationIds: number[]) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const pending = organizationIds.reduce(
      (n, id) => n + (tenant(id).prepare("select count(*) as n from jobs where status in ('queued', 'running')").get() as { n: number }).n,
      0,
    );
    if (pending === 0) break;
    if (Date.now() > deadline) {
      const db = tenant(organizationIds[0]);
      const jobs = db.prepare("select id, status, attempts, payload, error from jobs").all();
      const claims = db.prepare("select status, count(*) n from reminders group by status").all();
      throw new Error(
        `reminder runs still pending:\n${JSON.stringify({ jobs, claims, mails: mailbox.mails.length })}\n${server?.output()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return organizationIds.flatMap(
    (id) =>
      tenant(id).prepare("select status, result from jobs where kind = 'reminders.send' order by id").all() as {
        status: string;
        result: string;
      }[],
  );
}

const env = () => ({ SMTP_URL: mailbox.url, MAIL_FROM: "Lectern <no-reply@lectern.test>" });
const to = (email: string, from = 0) => mailbox.mails.slice(from).filter((m) => m.to.includes(email));
const subjects = (email: string, from = 0) => to(email, from).map((m) => m.subject);
const unsubscribeUrl = (mail: ReceivedMail) => new URL(/^<(.+)>$/.exec(mail.headers["list-unsubscribe"])![1]);
const pathOf = (url: URL) => `${url.pathname}${url.search}`;

beforeAll(async () => {
  mailbox = await startMailbox();
  dataDir = makeDataDir({ empty: true, prefix: "lectern-reminders-" });
  // Both organizations, seeded through the models as of the first run's morning.
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  try {
    const t0 = new Date("2026-03-02T08:00:00Z");
    const remind = createOrganization(
      platform.db,
      { dataDir },
      { name: "Remind", urlPrefix: "remind", language: "en", twoFactorRequired: true },
    );
    const nordisk = createOrganization(platform.db, { dataDir }, { name: "Nordisk", urlPrefix: "nordisk", language: "da" });
    org.remind = remind.id;
    org.nordisk = nordisk.id;
    await platform.tenants.withTenant(remind.id, async (db: TenantDb) => {
      const id: Record<string, number> = {};
      for (const [name, role, language] of [
        ["admin", "admin", null],
        ["lead", "learner", null],
        ["ann", "learner", "pl"],
        ["bo", "learner", null],
        ["cy", "learner", null],
        ["dan", "learner", null],
        ["eve", "learner", null],
        ["fay", "learner", null],
        ["gil", "learner", null],
      ] as const) {
        const user = await createUser(db, {
          email: `${name}@remind.test`,
          firstName: name[0].toUpperCase() + name.slice(1),
          lastName: "Tester",
          role,
          language,
          password: "demo1234",
        });
        id[name] = user.id;
      }
      const fire = createCourse(db, { title: "Fire safety", description: "", type: "series", published: true, position: 0 }).id;
      const gdpr = createCourse(db, { title: "GDPR basics", description: "", type: "series", published: true, position: 1 }).id;
      const gdprLesson = db.insert(lessons).values({ courseId: gdpr, title: "Rights", kind: "text", position: 0 }).returning().get();
      db.insert(lessons).values({ courseId: fire, title: "Exits", kind: "text", position: 0 }).run();
      const teamA = createGroup(db, { name: "Team A" }).id;
      const teamB = createGroup(db, { name: "Team B" }).id;
      addMembers(db, teamA, [id.lead, id.ann, id.bo, id.dan, id.eve]);
      addMembers(db, teamA, [id.lead], { admin: true });
      addMembers(db, teamB, [id.cy, id.gil]);
      const admin = getUser(db, id.admin)!;
      const assigner = viewerOfMember({ organization: remind, db, language: "en" }, admin, membershipsOf(db, admin.id));
      const due = { kind: "date" as const, date: DUE };
      for (const target of [
        { courseId: fire, target: { kind: "group" as const, groupId: teamA } },
        { courseId: gdpr, target: { kind: "group" as const, groupId: teamB } },
        { courseId: fire, target: { kind: "person" as const, userId: id.fay } },
        { courseId: gdpr, target: { kind: "person" as const, userId: id.ann } },
      ]) {
        expect(createAssignment(db, assigner, { ...target, due }, t0).ok).toBe(true);
      }
      // Bo leaves Team A, Cy completes GDPR basics, Dan is disabled: none of them gets anything.
      removeMember(db, teamA, id.bo);
      completeLesson(db, { userId: id.cy, lesson: gdprLesson, now: new Date("2026-03-02T08:30:00Z") });
      db.$client.prepare("update users set disabled_at = unixepoch() where id = ?").run(id.dan);
    });
    await platform.tenants.withTenant(nordisk.id, async (db: TenantDb) => {
      const admin = await createUser(db, { email: "admin@nordisk.test", role: "admin", password: "demo1234" });
      const ida = await createUser(db, { email: "ida@nordisk.test", firstName: "Ida", role: "learner" });
      const course = createCourse(db, { title: "Førstehjælp", description: "", type: "series", published: true, position: 0 }).id;
      const assigner = viewerOfMember({ organization: nordisk, db, language: "da" }, admin, []);
      const made = createAssignment(
        db,
        assigner,
        { courseId: course, target: { kind: "person", userId: ida.id }, due: { kind: "date", date: DUE } },
        t0,
      );
      expect(made.ok).toBe(true);
    });
  } finally {
    platform.close();
  }
});

afterAll(async () => {
  await server?.stop();
  await mailbox?.close();
  for (const db of connections.values()) db.close();
});

describe("reminders by e-mail, exactly once across restarts", () => {
  it("retries what the mail server refused; one-click unsubscribe; the GET does nothing; sign-in codes still come; the settings form", async () => {
    queueRuns(org.remind, [RUN.assigned, RUN.retry]);
    queueRuns(org.nordisk, [RUN.assigned, RUN.retry]);
    mailbox.refuseNext(3);
    server = await startServer({ dataDir, env: env() });
    const results = await runsFinished(org.remind, org.nordisk);
    expect(results.map((r) => r.status)).toEqual(["done", "done", "done", "done"]);
    // The first run stopped after three refusals in a row; the second sent them and the rest.
    expect(JSON.parse(results[0].result)).toMatchObject({ mails: 0, failed: 3, more: true });
    expect(JSON.parse(results[1].result)).toMatchObject({ mails: 5, failed: 0 });

    for (const name of ["lead", "eve", "fay"]) expect(subjects(`${name}@remind.test`)).toEqual(["New course to complete: Fire safety"]);
    expect(subjects("gil@remind.test")).toEqual(["New course to complete: GDPR basics"]);
    // Ann has two courses, in Polish, in one mail.
    const [annMail] = to("ann@remind.test");
    expect(to("ann@remind.test")).toHaveLength(1);
    expect(annMail.subject).toBe("2 przypisane kursy wymagają Twojej uwagi w Remind");
    expect(annMail.text).toContain("Fire safety");
    expect(annMail.text).toContain("GDPR basics");
    expect(annMail.text).toContain("15 marca 2026");
    for (const name of ["bo", "cy", "dan", "admin"]) expect(to(`${name}@remind.test`)).toEqual([]);
    expect(subjects("ida@nordisk.test")).toEqual(["Nyt kursus, du skal gennemføre: Førstehjælp"]);

    // The mail: plain text and HTML naming the course, due date and state, with a link to the course on
    // the organization's host, and RFC 8058's headers.
    const [fay] = to("fay@remind.test");
    const origin = `http://${HOST}:${server.port}`;
    expect(fay.text).toContain("Due date: 15 March 2026");
    expect(fay.text).toContain("Status: Not started");
    expect(fay.text).toMatch(new RegExp(`${origin}/courses/\\d+`));
    expect(fay.html).toContain("Fire safety");
    expect(fay.html).toMatch(new RegExp(`href="${origin}/courses/\\d+"`));
    expect(fay.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(unsubscribeUrl(fay).origin).toBe(origin);
    expect(unsubscribeUrl(fay).pathname).toBe("/reminders/unsubscribe");

    // Gil opens his link (as a mail scanner would): a page with a button, and nothing changes.
    const gilLink = unsubscribeUrl(to("gil@remind.test")[0]);
    const page = await request(server.port, HOST, pathOf(gilLink));
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-testid="unsubscribe-button"');
    expect(page.body).toContain("gi***@remind.test");
    // A token of one organization means nothing on another's host, nor does a forged one.
    expect((await request(server.port, NORDISK, pathOf(gilLink))).status).toBe(404);
    expect((await request(server.port, HOST, pathOf(gilLink).replace(/.{4}$/, "AAAA"))).status).toBe(404);

    // Eve's mail client posts the one-click unsubscribe from another site, without cookies of ours.
    const eveLink = unsubscribeUrl(to("eve@remind.test")[0]);
    const oneClick = await request(server.port, HOST, pathOf(eveLink), {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example", "Sec-Fetch-Site": "cross-site" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status, server.output().slice(-3000)).toBe(200);
    // Only that path is let through from another site.
    const elsewhere = await request(server.port, HOST, "/reminders/subscription", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://mail.example", "Sec-Fetch-Site": "cross-site" },
      body: "off=true",
    });
    expect(elsewhere.status).toBe(403);
    // Eve still gets her sign-in code.
    const before = mailbox.mails.length;
    const { res } = await loginPage(server, HOST, "eve@remind.test", "demo1234");
    expect(res.status).toBe(302);
    expect(subjects("eve@remind.test", before)).toEqual(["Your sign-in code for Remind"]);

    // Lead turns reminders off and back on in the profile settings (forms, no JavaScript).
    const lead = await cookieFor(insertSession(server, { organizationId: org.remind }, { email: "lead@remind.test", kind: "web" }));
    expect((await postForm(server, HOST, "/reminders/subscription", { off: "true" }, lead)).headers.location).toBe("/profile/settings");
    const settings = await request(server.port, HOST, "/profile/settings", { headers: { Cookie: lead } });
    expect(settings.body).toContain("E-mail reminders are off.");
    expect((await postForm(server, HOST, "/reminders/subscription", { off: "false" }, lead)).status).toBe(302);

    // Nordisk's admin keeps only "before the due date", 5 days ahead; a bad number is refused in Danish.
    const nordiskAdmin = await cookieFor(
      insertSession(server, { organizationId: org.nordisk }, { email: "admin@nordisk.test", kind: "web" }),
    );
    const screen = `/dashboard/organizations/${org.nordisk}?index`;
    const bad = await postForm(server, NORDISK, screen, { intent: "reminders", beforeDue: "on", daysBefore: "0" }, nordiskAdmin);
    expect(bad.status).toBe(400);
    expect(bad.body).toContain("Angiv et helt antal dage fra 1 til 30.");
    const saved = await postForm(server, NORDISK, screen, { intent: "reminders", beforeDue: "on", daysBefore: "5" }, nordiskAdmin);
    expect(saved.status).toBe(302);
    expect(cookieFrom(saved, "lectern_flash")).not.toBeNull();
    const token = insertSession(server, { organizationId: org.nordisk }, { email: "admin@nordisk.test", kind: "api" });
    expect((await api(server, NORDISK, "GET", "reminders/settings", { token })).json().payload).toEqual({
      on_assignment: false,
      before_due: true,
      days_before: 5,
      on_due_date: false,
      while_overdue: false,
      weekly_digest: false,
    });
    await server.stop();
  });

  it("sends each kind once on its day, from 08:00 local time; digests list the right people; a crash mid-send", async () => {
    const from = mailbox.mails.length;
    // The first runs again (already sent before the restart), every day up to week 2 overdue, and then
    // week 3's run, whose first mail is held by the mail server while the server is killed.
    const upToWeek2 = Object.values(RUN).filter((r) => r !== RUN.overdue3);
    queueRuns(org.remind, [...upToWeek2, RUN.overdue3]);
    queueRuns(org.nordisk, upToWeek2);
    // What Remind's runs up to week 2 send (checked below). Nordisk's runs come after Remind's (the runner
    // takes one organization's jobs at a time, in order), so after the restart.
    const expected = 20;
    mailbox.hold(from + expected);
    server = await startServer({ dataDir, env: env() });
    const deadline = Date.now() + 15_000;
    while (mailbox.mails.length <= from + expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const exited = new Promise((resolve) => server!.process.once("exit", resolve));
    server.process.kill("SIGKILL");
    await exited;
    mailbox.release();
    const sent = mailbox.mails.slice(from, from + expected);
    cut = mailbox.mails[from + expected];
    expect(cut?.subject).toMatch(/Overdue|przypisane/);
    expect(mailbox.mails.length).toBe(from + expected + 1);
    const mine = (email: string) => sent.filter((m) => m.to.includes(email));

    const fire = ["Due in 3 days: Fire safety", "Due today: Fire safety", "Overdue: Fire safety", "Overdue: Fire safety"];
    expect(
      mine("lead@remind.test")
        .map((m) => m.subject)
        .filter((s) => !s.includes("overdue at")),
    ).toEqual(fire);
    expect(mine("fay@remind.test").map((m) => m.subject)).toEqual(fire);
    expect(mine("gil@remind.test").map((m) => m.subject)).toEqual(fire.map((s) => s.replace("Fire safety", "GDPR basics")));
    expect(mine("ann@remind.test").map((m) => m.subject)).toEqual(Array(4).fill("2 przypisane kursy wymagają Twojej uwagi w Remind"));
    const overdue2 = mine("fay@remind.test")[3];
    expect(overdue2.text).toContain("Overdue by 8 days");
    expect(overdue2.text).toContain("Status: Overdue");
    // Eve unsubscribed; Bo left, Cy is done, Dan is disabled.
    for (const name of ["eve", "bo", "cy", "dan"]) expect(mine(`${name}@remind.test`)).toEqual([]);

    // The organization admin's digest lists every overdue person (Eve too: she is still overdue); the
    // group admin's only those of Team A's assignments.
    const adminDigests = mine("admin@remind.test");
    expect(adminDigests.map((m) => m.subject)).toEqual(["5 people overdue at Remind", "5 people overdue at Remind"]);
    for (const name of ["Ann", "Eve", "Fay", "Gil", "Lead"])
      expect(adminDigests[0].text).toContain(`${name} Tester (${name.toLowerCase()}@remind.test)`);
    for (const name of ["Bo", "Cy", "Dan"]) expect(adminDigests[0].text).not.toContain(`${name} Tester`);
    expect(adminDigests[0].text).toContain("Fire safety");
    expect(adminDigests[0].text).toContain("GDPR basics");
    expect(adminDigests[0].headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    const leadDigests = mine("lead@remind.test").filter((m) => m.subject.includes("overdue at"));
    expect(leadDigests.map((m) => m.subject)).toEqual(["3 people overdue at Remind", "3 people overdue at Remind"]);
    expect(leadDigests[0].text).toContain("Team A");
    for (const name of ["Ann", "Eve", "Lead"]) expect(leadDigests[0].text).toContain(`${name} Tester`);
    for (const name of ["Fay", "Gil"]) expect(leadDigests[0].text).not.toContain(`${name} Tester`);
    expect(leadDigests[0].text).not.toContain("GDPR basics");
    expect(sent).toHaveLength(expected);
  });

  it("sends nothing again after a restart, and never twice the mail cut off by the crash; per-organization settings", async () => {
    const from = mailbox.mails.length;
    // Every run so far again, after the killed one (which the server resumes first).
    const upToWeek2 = Object.values(RUN).filter((r) => r !== RUN.overdue3);
    queueRuns(org.remind, upToWeek2);
    server = await startServer({ dataDir, env: env() });
    await runsFinished(org.remind, org.nordisk);
    const after = mailbox.mails.slice(from);
    // The person whose mail was under way gets nothing more; the others their week-3 reminder once, and
    // the admins this week's digest; nothing else is sent again.
    const isDigest = (m: ReceivedMail) => m.subject.includes("overdue at");
    expect(after.filter((m) => m.to.includes(cut.to[0]) && !isDigest(m))).toEqual([]);
    const reminded = ["ann", "fay", "gil", "lead"].map((n) => `${n}@remind.test`).filter((e) => e !== cut.to[0]);
    for (const email of reminded) expect(after.filter((m) => m.to.includes(email) && !isDigest(m))).toHaveLength(1);
    expect(
      after
        .filter(isDigest)
        .map((m) => m.to[0])
        .sort(),
    ).toEqual(["admin@remind.test", "lead@remind.test"]);
    // Nordisk: only the reminder 5 days before, in Danish; no digest.
    expect(after.filter((m) => m.to.includes("ida@nordisk.test")).map((m) => m.subject)).toEqual(["Frist om 5 dage: Førstehjælp"]);
    expect(after.filter((m) => m.to.includes("admin@nordisk.test"))).toEqual([]);
    expect(after).toHaveLength(reminded.length + 2 + 1);
    // Week 3's reminders: Ann's two courses, Fay's, Gil's and Lead's one each.
    const unknown = cut.to[0] === "ann@remind.test" ? 2 : 1;
    const statuses = tenant(org.remind)
      .prepare("select status, count(*) as n from reminders where week = 3 group by status order by status")
      .all();
    expect(statuses).toEqual([
      { status: "sent", n: 5 - unknown },
      { status: "unknown", n: unknown },
    ]);
    await server.stop();
  });
});
