import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createOrganization } from "../../app/models/organization.server";
import { runReminders } from "../../app/models/reminders.server";
import { addDays, dayIn, DEFAULT_TIME_ZONE } from "../../app/utils/calendar";
import { readConfig } from "../../server/config";
import { logger } from "../../server/logger";
import { Platform } from "../../server/platform";

/**
 * Reminders by e-mail (issue 34, docs/decisions/038-reminders.md): runs of the reminders job over
 * 10,000 learners with 20 assigned courses each (200,000 assignment rows, written straight into the
 * database). Due days are spread from 60 days ago to 60 days ahead, a third of the rows done, one in
 * twenty assigned within the week; every learner is in one of 50 groups with a group admin.
 *
 * Three runs: the first, when nothing has been sent yet and every learner gets a mail (the worst case:
 * reminders just turned on, or the first run after a long outage); the next day's, which finds what was
 * sent and sends only that day's new reminders; and one 15 minutes later, with nothing left to send (what
 * most runs are). With `mails: "outbox"` the mails go to the outbox folder as without SMTP (nodemailer
 * builds each one, a file is written) and the time spent in the mailer, the mail system's share, is
 * timed apart; with `mails: "counted"` they are composed and counted, not built, which shows the job's
 * own work without the mailer's garbage and threads running beside it.
 */
export async function benchReminders({
  learners = 10_000,
  courses = 20,
  groups = 50,
  mails = "outbox",
}: {
  learners?: number;
  courses?: number;
  groups?: number;
  mails?: "outbox" | "counted";
} = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-reminders-"));
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  // Not a line per mail written ("mail written"): 17,000 of them would bury the bench's own output.
  const level = logger.level;
  logger.level = "warn";
  try {
    const organization = createOrganization(platform.db, { dataDir }, { name: "Reminders bench", urlPrefix: "reminders", language: "en" });
    const now = new Date();
    const today = dayIn(DEFAULT_TIME_ZONE, now);
    // 10:00 in Copenhagen, whatever the hour the bench runs: day kinds and digests go from 08:00.
    const at = new Date(`${today}T09:00:00Z`);
    const seconds = Math.floor(at.getTime() / 1000);
    const seedStarted = process.hrtime.bigint();
    platform.tenants.withTenant(organization.id, (db) => {
      const sqlite = db.$client;
      sqlite.transaction(() => {
        const course = sqlite.prepare("insert into courses (title, description, type, published, position) values (?, '', 'series', 1, ?)");
        for (let c = 1; c <= courses; c++) course.run(`Compliance course ${c}`, c);
        const user = sqlite.prepare("insert into users (email, first_name, last_name, role) values (?, 'Learner', ?, ?)");
        user.run("admin@bench.test", "Admin", "admin");
        for (let i = 1; i <= learners; i++) user.run(`learner${i}@bench.test`, String(i), "learner");
        const group = sqlite.prepare("insert into groups (name) values (?)");
        for (let g = 1; g <= groups; g++) group.run(`Team ${g}`);
        // Learner i (user id i + 1) is in group (i % groups) + 1; the first of each group administers it.
        sqlite
          .prepare(
            `insert into group_members (group_id, user_id, is_admin)
             select ((u.id - 2) % ?) + 1, u.id, u.id - 1 <= ? from users u where u.role = 'learner'`,
          )
          .run(groups, groups);
        const assignment = sqlite.prepare(
          "insert into assignments (course_id, target, group_id, due_kind, due_days, created_at, updated_at) values (?, 'group', ?, 'days', 30, ?, ?)",
        );
        for (let c = 1; c <= courses; c++) for (let g = 1; g <= groups; g++) assignment.run(c, g, seconds, seconds);
        const person = sqlite.prepare(
          "insert into assignment_people (assignment_id, user_id, assigned_at, due_on, completed_at) values (?, ?, ?, ?, ?)",
        );
        for (let i = 1; i <= learners; i++) {
          const userId = i + 1;
          const g = ((userId - 2) % groups) + 1;
          for (let c = 1; c <= courses; c++) {
            const spread = (i * 7 + c * 13) % 120;
            const recent = (i + c) % 20 === 0;
            person.run(
              (c - 1) * groups + g,
              userId,
              recent ? seconds - 86_400 : seconds - 90 * 86_400,
              addDays(today, spread - 60),
              (i + c) % 3 === 0 ? seconds - 86_400 : null,
            );
          }
        }
      })();
    });
    const seedSeconds = Number(process.hrtime.bigint() - seedStarted) / 1e9;

    // The mails go through the platform's own mailer (to the outbox folder, as without SMTP); the time spent
    // in it (nodemailer building each message, the file written) is measured apart from the job's own work.
    let transportNs = 0n;
    const mailer = {
      send: async (message: Parameters<Platform["mailer"]["send"]>[0]) => {
        const started = process.hrtime.bigint();
        try {
          if (mails === "outbox") await platform.mailer.send(message);
        } finally {
          transportNs += process.hrtime.bigint() - started;
        }
      },
    } as Platform["mailer"];
    const services = {
      db: platform.db,
      mailer,
      log: platform.log,
      originFor: (o: Parameters<Platform["originFor"]>[0]) => platform.originFor(o),
      signValue: (purpose: string, value: string) => platform.signValue(purpose, value),
      verifyValue: (purpose: string, value: string, signature: string) => platform.verifyValue(purpose, value, signature),
    };
    const round = (seconds: number) => Math.round(seconds * 100) / 100;
    const run = async (when: Date) =>
      platform.tenants.withTenant(organization.id, async (db) => {
        transportNs = 0n;
        const started = process.hrtime.bigint();
        const cpu = process.cpuUsage();
        const result = await runReminders(db, services, organization, when, { budgetMs: 10 * 60_000 });
        const used = process.cpuUsage(cpu);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const transport = Number(transportNs) / 1e9;
        return {
          ...result,
          seconds: round(seconds),
          /** Of which in the mailer: nodemailer building each message and the outbox file written. */
          transportSeconds: round(transport),
          /** The job's own work: choosing, claiming, composing and recording. */
          ownSeconds: round(seconds - transport),
          /** This process's CPU time for the run (steadier than the wall clock on a shared machine). */
          cpuSeconds: round((used.user + used.system) / 1e6),
        };
      });
    const first = await run(at);
    const nextDay = await run(new Date(at.getTime() + 86_400_000));
    // What most runs are (one every 15 minutes): everything due today already sent.
    const quiet = await run(new Date(at.getTime() + 86_400_000 + 15 * 60_000));
    return { learners, courses, rows: learners * courses, seedSeconds: Math.round(seedSeconds * 10) / 10, first, nextDay, quiet };
  } finally {
    logger.level = level;
    platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
