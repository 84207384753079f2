import { asc, eq } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import { jobs, userImports, users } from "../../db/tenant";

/**
 * Earlier CSV imports (issue 50; the list under /dashboard/users/import): a finished import of three people a month
 * ago (its job done, with its counts), one that failed on a line two weeks ago and one still waiting for its
 * confirmation. Rows only; nobody is imported again. Skipped when the organization has imports already.
 */
const DAY = 86_400_000;

export function seedImportsDemo(db: TenantDb, { domain, now = new Date() }: { domain: string; now?: Date }) {
  if (db.select({ id: userImports.id }).from(userImports).limit(1).get()) return;
  const admin = db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).get();
  const at = (days: number) => new Date(now.getTime() - days * DAY);
  const csv = (names: string[]) =>
    ["first_name,last_name,phone,email", ...names.map((n) => `${n},,,${n.toLowerCase()}@${domain}`)].join("\n");
  const rows: { file: string; names: string[]; job?: Partial<typeof jobs.$inferInsert>; days: number }[] = [
    {
      file: "new-starters-september.csv",
      names: ["Ines", "Omar", "Pia"],
      days: 30,
      job: { status: "done", progress: 100, result: { imported: 3, invited: 3 } },
    },
    {
      file: "warehouse-seasonal.csv",
      names: ["Ravi", "Sanna", "Sanna"],
      days: 14,
      job: { status: "failed", error: "import:4:duplicateInFile" },
    },
    { file: "office-interns.csv", names: ["Tove", "Uma"], days: 1 },
  ];
  for (const row of rows) {
    const createdAt = at(row.days);
    const stored = db
      .insert(userImports)
      .values({
        fileName: row.file,
        status: row.job ? (row.job.status as "done" | "failed") : "preview",
        content: csv(row.names),
        rowCount: row.names.length,
        sendInvitations: true,
        createdBy: admin?.id ?? null,
        createdAt,
        updatedAt: createdAt,
      })
      .returning({ id: userImports.id })
      .get();
    if (!row.job) continue;
    const job = db
      .insert(jobs)
      .values({
        kind: "users.import",
        payload: { import_id: stored.id },
        attempts: 1,
        startedAt: createdAt,
        finishedAt: createdAt,
        createdAt,
        updatedAt: createdAt,
        ...row.job,
      })
      .returning({ id: jobs.id })
      .get();
    db.update(userImports).set({ jobId: job.id }).where(eq(userImports.id, stored.id)).run();
  }
}
