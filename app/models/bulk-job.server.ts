import type { TenantConn, TenantDb } from "../../db/open";
import type { Job } from "../../db/tenant";
import { JobInterrupted, keepPlace } from "./job.server";

/**
 * What every bulk action shares (issue 50; docs/decisions/046-management-lists.md item 5): a job over a fixed list
 * of ids (people: app/models/people-bulk/; courses: app/models/course-bulk/), worked through a slice at a time, each
 * slice one transaction (all or nothing; the organization's write lock held for one slice, then other requests
 * run), each row done, left as it was, or refused with a reason. After each slice the job keeps its place (the next
 * slice's start and the counts so far) in its own row, in the slice's transaction: a job stopped by the server
 * stopping (`JobInterrupted`) or by a crash goes on from there, not from the start.
 */
export interface SliceOutcome<R extends string = string> {
  done: number;
  unchanged: number;
  refused: Partial<Record<R, number>>;
}

export interface BulkResult<A extends string = string, R extends string = string> extends SliceOutcome<R> {
  action: A;
  total: number;
  /** The longest slice, in milliseconds: the longest the job held the write lock at once. */
  longestSliceMs?: number;
}

/** An empty slice's outcome, to count into. */
export const outcome = <R extends string>(): SliceOutcome<R> => ({ done: 0, unchanged: 0, refused: {} });

/** Counts `n` rows refused for `reason` (none when `n` is 0). */
export function refuse<R extends string>(o: SliceOutcome<R>, reason: R, n = 1) {
  if (n > 0) o.refused[reason] = ((o.refused[reason] as number | undefined) ?? 0) + n;
}

/** What a bulk job's payload holds at least: the action and the ids it works through, in order. */
export interface BulkPayload<A extends string = string> {
  action: A;
  ids: number[];
}

export interface BulkRun {
  progress: (percent: number) => void;
  pause: () => Promise<void>;
  stopping?: () => boolean;
  /** The job's row, to keep the place in (none when the demo's seeding runs the action itself). */
  job?: Job;
}

/** Where a bulk job stopped, kept in its result after each slice: the next row's index, and the counts so far. */
type Kept = BulkResult & { next: number };

/**
 * Works through a bulk action's ids `size` at a time, each slice in one transaction by `slice`, and gives the
 * counts. With a job, it starts where the job's kept place says, and keeps it after each slice.
 */
export async function runBulkSlices<A extends string, R extends string, O extends SliceOutcome<R> = SliceOutcome<R>>(
  db: TenantDb,
  {
    action,
    ids,
    size,
    slice,
    committed,
  }: {
    action: A;
    ids: number[];
    size: number;
    slice: (tx: TenantConn, ids: number[]) => O;
    /** What is done once a slice has committed, outside its transaction (mail, say), correcting the counts if need be. */
    committed?: (outcome: O, result: BulkResult<A, R>) => Promise<void>;
  },
  { progress, pause, stopping, job }: BulkRun,
): Promise<BulkResult<A, R>> {
  const kept = job?.result as Kept | null | undefined;
  const result: BulkResult<A, R> = kept?.next
    ? {
        action,
        total: kept.total,
        done: kept.done,
        unchanged: kept.unchanged,
        refused: { ...kept.refused } as Partial<Record<R, number>>,
        longestSliceMs: kept.longestSliceMs,
      }
    : { action, total: ids.length, done: 0, unchanged: 0, refused: {} };
  for (let i = kept?.next ?? 0; i < ids.length; i += size) {
    if (stopping?.()) throw new JobInterrupted();
    const started = performance.now();
    const counted = db.transaction((tx) => {
      const outcome = slice(tx, ids.slice(i, i + size));
      result.done += outcome.done;
      result.unchanged += outcome.unchanged;
      for (const [reason, n] of Object.entries(outcome.refused) as [R, number][]) refuse(result, reason, n);
      if (job) keepPlace(tx, job.id, { ...result, next: i + size });
      return outcome;
    });
    // How long the slice's transaction kept the organization's write lock, at most (npm run bench reads it).
    result.longestSliceMs = Math.max(result.longestSliceMs ?? 0, Math.round(performance.now() - started));
    await committed?.(counted, result);
    progress(((i + size) / ids.length) * 100);
    await pause();
  }
  return result;
}

/** A bulk job as its page and /api show it. */
export function bulkJobView<A extends string, R extends string>(job: Job) {
  const payload = job.payload as unknown as BulkPayload<A>;
  const result = job.result as unknown as BulkResult<A, R> | null;
  return {
    id: job.id,
    status: job.status,
    progress: job.progress,
    action: payload.action,
    total: payload.ids.length,
    done: result?.done ?? null,
    unchanged: result?.unchanged ?? null,
    refused: result?.refused ?? null,
    error: job.error,
  };
}

/** The job, when it is of this kind of bulk action. */
export function bulkJobOf(job: Job | undefined, kind: string) {
  return job && job.kind === kind ? job : undefined;
}

/** Who started a bulk job (the person in its snapshot), or null for a super-admin's or the system's. */
export function bulkJobStarter(job: Job): number | null {
  return (job.payload as { actor?: { person?: { id: number } | null } }).actor?.person?.id ?? null;
}
