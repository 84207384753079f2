import { eq } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import { jobs } from "../../db/tenant";

/**
 * A bulk action's job as the demo shows it (issue 50: people's in scripts/demo/people-bulk.ts, courses' in
 * scripts/demo/course-bulk.ts): its row made at `at`, the action run as the server runs it as of that moment, and
 * the row finished with its counts. The slices' timing is left out: a second seeding as of the same moment writes
 * the same rows.
 */
export async function finishedBulkJob(db: TenantDb, kind: string, payload: object, at: Date, run: () => Promise<Record<string, unknown>>) {
  const job = db
    .insert(jobs)
    .values({ kind, payload: payload as Record<string, unknown>, createdAt: at, updatedAt: at })
    .returning()
    .get();
  const { longestSliceMs: _timing, ...result } = await run();
  db.update(jobs)
    .set({ status: "done", progress: 100, result, attempts: 1, startedAt: at, finishedAt: at, updatedAt: at })
    .where(eq(jobs.id, job.id))
    .run();
}
