/*
 * A learner's progress on a learning path (issue 49, docs/decisions/045-learning-paths.md), worked out from the
 * path's steps and the times the learner completed its courses, with no database in sight (the models feed it):
 *
 * - the first step opens when the learner enrols; each later one when the step before it is done, and then only
 *   after its delay in days (spaced learning);
 * - a step is done once `required` of its courses are completed (1 for a course step, N for "any N of these"),
 *   and never before it opened: a course completed earlier counts, as of the moment its step opens;
 * - the path is done when its last step is, at that moment.
 */

export interface StepRule {
  id: number;
  /** How many of its courses make it done. */
  required: number;
  /** Days after the step before it is done that it opens. */
  delayDays: number;
  courseIds: readonly number[];
}

export type StepState =
  | { state: "done"; doneAt: Date; completed: number }
  | { state: "open"; openedAt: Date; completed: number }
  | { state: "waiting"; opensAt: Date; completed: number }
  | { state: "locked"; completed: number };

export interface PathProgress {
  steps: Array<StepState & { id: number; required: number }>;
  /** When the path was done (its last step), or null. */
  doneAt: Date | null;
  /** Courses counted towards the path (at most `required` a step) over all it asks for, 0–100. */
  percent: number;
  /** The first course of the first open step not yet completed: where "Continue" leads. */
  next: { stepId: number; courseId: number } | null;
}

const DAY_MS = 86_400_000;

/** The moment the `n`-th of `courseIds` was completed (n from 1), or null while fewer are. */
function nthCompletion(courseIds: readonly number[], completedAt: ReadonlyMap<number, Date>, n: number): Date | null {
  const times = courseIds
    .map((id) => completedAt.get(id))
    .filter((t): t is Date => t !== undefined)
    .sort((a, b) => a.getTime() - b.getTime());
  return times.length >= n ? times[n - 1] : null;
}

export function pathProgress(
  steps: readonly StepRule[],
  { enrolledAt, completedAt, now }: { enrolledAt: Date; completedAt: ReadonlyMap<number, Date>; now: Date },
): PathProgress {
  const out: PathProgress["steps"] = [];
  let previousDone: Date | null = enrolledAt;
  let counted = 0;
  let asked = 0;
  let next: PathProgress["next"] = null;
  for (const [index, step] of steps.entries()) {
    const required = Math.max(1, Math.min(step.required, step.courseIds.length || 1));
    const completed = step.courseIds.filter((id) => completedAt.has(id)).length;
    counted += Math.min(completed, required);
    asked += required;
    const base = { id: step.id, required, completed };
    if (previousDone === null) {
      out.push({ ...base, state: "locked" });
      continue;
    }
    const opensAt: Date = new Date(previousDone.getTime() + (index === 0 ? 0 : step.delayDays * DAY_MS));
    if (opensAt.getTime() > now.getTime()) {
      out.push({ ...base, state: "waiting", opensAt });
      previousDone = null;
      continue;
    }
    const nth = nthCompletion(step.courseIds, completedAt, required);
    if (nth !== null) {
      const doneAt: Date = nth.getTime() > opensAt.getTime() ? nth : opensAt;
      out.push({ ...base, state: "done", doneAt });
      previousDone = doneAt;
      continue;
    }
    out.push({ ...base, state: "open", openedAt: opensAt });
    const courseId = step.courseIds.find((id) => !completedAt.has(id));
    if (next === null && courseId !== undefined) next = { stepId: step.id, courseId };
    previousDone = null;
  }
  const last = out[out.length - 1];
  return {
    steps: out,
    doneAt: last && last.state === "done" ? last.doneAt : null,
    percent: asked === 0 ? 0 : Math.floor((counted / asked) * 100),
    next,
  };
}
