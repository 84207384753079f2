import { benchReminders } from "./reminders";
import { atMost, type Report } from "./table";

/**
 * Reminders by e-mail (issue 34): the reminders job's run over 10,000 learners × 20 assigned courses, ≤ 5 s.
 * The rows time the job itself, its mails composed and counted; the mail system's share (nodemailer
 * building each message, the outbox file) is then measured on the same data and printed beside them.
 */
export async function reportReminders({ table, json }: Report) {
  const learners = Number(process.env.BENCH_REMINDER_LEARNERS ?? 10_000);
  const r = await benchReminders({ learners, mails: "counted" });
  const o = await benchReminders({ learners, mails: "outbox" });
  const line = (run: typeof r.first) =>
    `${run.seconds} s (${run.cpuSeconds} s CPU): ${run.mails} mails, ${run.reminders} reminders, ${run.digests} digests`;
  const outbox = (run: typeof o.first) => `${run.seconds} s, of which ${run.transportSeconds} s in the mailer`;
  console.log(
    `  reminders: ${r.learners} learners × ${r.courses} assigned courses (${r.rows} rows, seeded in ${r.seedSeconds} s)` +
      `\n    first run     ${line(r.first)}; to the outbox ${outbox(o.first)}` +
      `\n    next day      ${line(r.nextDay)}; to the outbox ${outbox(o.nextDay)}` +
      `\n    15 min later  ${line(r.quiet)}`,
  );
  table.push({
    what: `reminders job, ${r.learners} learners × ${r.courses} courses, first run (${r.first.mails} mails): s`,
    ...atMost(r.first.seconds, 5),
  });
  table.push({ what: `reminders job, the next day's run (${r.nextDay.mails} mails): s`, ...atMost(r.nextDay.seconds, 5) });
  table.push({ what: `reminders job, a run with nothing left to send (every 15 minutes): s`, ...atMost(r.quiet.seconds, 5) });
  json.reminders = { counted: r, outbox: o };
}
