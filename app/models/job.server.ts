import { and, asc, eq, inArray } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { jobs, type Job } from "../../db/tenant";

/** A job's failure that should be shown as it is (the reason a person can act on). */
export class JobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JobError";
  }
}

/**
 * Thrown by a job that stopped because the server is stopping, having kept what it did (a bulk action on people
 * keeps its place after each slice): the runner leaves it running, uncounted, and it goes on after the restart.
 */
export class JobInterrupted extends Error {
  constructor() {
    super("stopped with the server; goes on after the restart");
    this.name = "JobInterrupted";
  }
}

/** Gives back the attempt a job's interrupted run took: an orderly stop is not the job's failure. */
export function uncountAttempt(db: TenantConn, job: Job) {
  db.update(jobs)
    .set({ attempts: Math.max(0, job.attempts - 1) })
    .where(eq(jobs.id, job.id))
    .run();
}

/** A job's place so far, kept in its result while it runs (a bulk action on people resumes from it). */
export function keepPlace(db: TenantConn, id: number, place: Record<string, unknown>) {
  db.update(jobs).set({ result: place }).where(eq(jobs.id, id)).run();
}

export function enqueueJob(db: TenantConn, kind: string, payload: Record<string, unknown>) {
  return db.insert(jobs).values({ kind, payload }).returning().get();
}

export function getJob(db: TenantConn, id: number) {
  return db.select().from(jobs).where(eq(jobs.id, id)).get();
}

/** The oldest unfinished job: queued, or running when the process that ran it stopped. */
export function nextJob(db: TenantConn) {
  return db
    .select()
    .from(jobs)
    .where(inArray(jobs.status, ["queued", "running"]))
    .orderBy(asc(jobs.id))
    .get();
}

/** Whether a job of this kind is queued or running (so that it is not queued twice). */
export function hasPendingJobOfKind(db: TenantConn, kind: string) {
  return Boolean(
    db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, kind), inArray(jobs.status, ["queued", "running"])))
      .limit(1)
      .get(),
  );
}

export function hasPendingJobs(db: TenantConn) {
  return Boolean(nextJob(db));
}

export function startJob(db: TenantConn, job: Job) {
  return db
    .update(jobs)
    .set({ status: "running", attempts: job.attempts + 1, startedAt: new Date(), progress: 0, error: null })
    .where(and(eq(jobs.id, job.id)))
    .returning()
    .get()!;
}

export function reportProgress(db: TenantConn, id: number, progress: number) {
  db.update(jobs)
    .set({ progress: Math.max(0, Math.min(100, Math.round(progress))) })
    .where(eq(jobs.id, id))
    .run();
}

export function finishJob(db: TenantConn, id: number, result: Record<string, unknown>) {
  db.update(jobs).set({ status: "done", progress: 100, result, finishedAt: new Date() }).where(eq(jobs.id, id)).run();
}

export function failJob(db: TenantConn, id: number, error: string) {
  db.update(jobs).set({ status: "failed", error, finishedAt: new Date() }).where(eq(jobs.id, id)).run();
}

export function jobView(job: Job) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    progress: job.progress,
    result: job.result,
    error: job.error,
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}
