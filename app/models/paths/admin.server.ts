import { and, asc, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { courseCompletions, courses, learningPaths, pathEnrolments, pathSteps } from "../../../db/tenant";
import type { PathStepsInput } from "../forms/paths";
import type { WriteResult } from "../resource";
import { countedCompletions, stepRules } from "./enrolments.server";
import { setPathSteps } from "./paths.server";
import { pathProgress } from "./progress";

/*
 * Learning paths on their admins' screens (issue 49, docs/decisions/045-learning-paths.md): the list with how
 * many people are on each, a path's steps as the editor shows and changes them (one change at a time, every one
 * a plain form post, saved by replacing the steps whole in one transaction), and the path's analytics. Who may
 * do this is app/access's to say before these are called.
 */

/** Every path, in order, with its size and how many people are on it and have finished it. */
export function pathsForAdmin(db: TenantConn) {
  const people = new Map(
    db
      .select({
        pathId: pathEnrolments.pathId,
        enrolled: count(),
        completed: sql<number>`sum(${pathEnrolments.completedAt} is not null)`,
      })
      .from(pathEnrolments)
      .groupBy(pathEnrolments.pathId)
      .all()
      .map((r) => [r.pathId, r]),
  );
  const steps = new Map(
    db
      .select({ pathId: pathSteps.pathId, n: count() })
      .from(pathSteps)
      .groupBy(pathSteps.pathId)
      .all()
      .map((r) => [r.pathId, r.n]),
  );
  return db
    .select({ id: learningPaths.id, title: learningPaths.title, published: learningPaths.published, selfEnrol: learningPaths.selfEnrol })
    .from(learningPaths)
    .orderBy(asc(learningPaths.position), asc(learningPaths.id))
    .all()
    .map((p) => ({
      ...p,
      steps: steps.get(p.id) ?? 0,
      enrolled: people.get(p.id)?.enrolled ?? 0,
      completed: Number(people.get(p.id)?.completed ?? 0),
    }));
}

/** The courses a step may hold: every course of the organization, drafts marked, in the catalogue's order. */
export function courseChoices(db: TenantConn) {
  return db
    .select({ id: courses.id, title: courses.title, published: courses.published })
    .from(courses)
    .orderBy(asc(courses.position), asc(courses.id))
    .all();
}

/** A path's steps as the editor and /api take them. */
export function editableSteps(db: TenantConn, pathId: number): PathStepsInput["steps"] {
  return stepRules(db, pathId).map((rule) => ({
    kind: rule.kind,
    title: rule.title,
    course_ids: [...rule.courseIds],
    required: rule.required,
    delay_days: rule.delayDays,
  }));
}

/** One change of the editor: a step added, replaced, removed or moved (its index, from 0). */
export type StepEdit =
  | { kind: "add"; step: PathStepsInput["steps"][number] }
  | { kind: "update"; index: number; step: PathStepsInput["steps"][number] }
  | { kind: "remove"; index: number }
  | { kind: "move"; index: number; direction: "up" | "down" };

/** Applies one change to a path's steps and saves them whole; null when the path or the step is not there. */
export function editSteps(db: TenantConn, pathId: number, edit: StepEdit): WriteResult<unknown> | null {
  const steps = editableSteps(db, pathId);
  if (edit.kind === "add") steps.push(edit.step);
  else {
    if (edit.index < 0 || edit.index >= steps.length) return null;
    if (edit.kind === "update") steps[edit.index] = edit.step;
    else if (edit.kind === "remove") steps.splice(edit.index, 1);
    else {
      const to = edit.direction === "up" ? edit.index - 1 : edit.index + 1;
      if (to < 0 || to >= steps.length) return { ok: true, value: null };
      [steps[edit.index], steps[to]] = [steps[to], steps[edit.index]];
    }
  }
  return setPathSteps(db, pathId, { steps });
}

/** The median of some numbers, or null for none. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A path's analytics: how many people are on it, under way and done, the median days from enrolment to done, and
 * for each step how many have it as the one they are at (open, or waiting out its delay): where people stop.
 * Worked out from the enrolments and the completions of the path's courses, read once each.
 */
export function pathAnalytics(db: TenantConn, pathId: number, now = new Date()) {
  const rules = stepRules(db, pathId);
  const enrolments = db.select().from(pathEnrolments).where(eq(pathEnrolments.pathId, pathId)).all();
  const courseIds = [...new Set(rules.flatMap((r) => r.courseIds))];
  const byUser = new Map<number, Map<number, Date>>();
  if (courseIds.length && enrolments.length)
    for (const c of db
      .select({ userId: courseCompletions.userId, courseId: courseCompletions.courseId, at: courseCompletions.completedAt })
      .from(courseCompletions)
      .innerJoin(pathEnrolments, eq(pathEnrolments.userId, courseCompletions.userId))
      .where(
        and(eq(pathEnrolments.pathId, pathId), inArray(courseCompletions.courseId, courseIds), isNotNull(courseCompletions.completedAt)),
      )
      .all()) {
      const mine = byUser.get(c.userId) ?? new Map<number, Date>();
      mine.set(c.courseId, c.at);
      byUser.set(c.userId, mine);
    }
  const at = rules.map(() => 0);
  const days: number[] = [];
  let completed = 0;
  for (const e of enrolments) {
    if (e.completedAt) {
      completed++;
      days.push((e.completedAt.getTime() - e.enrolledAt.getTime()) / 86_400_000);
      continue;
    }
    const progress = pathProgress(rules, {
      enrolledAt: e.enrolledAt,
      completedAt: countedCompletions(byUser.get(e.userId) ?? new Map(), e),
      now,
    });
    const current = progress.steps.findIndex((s) => s.state === "open" || s.state === "waiting");
    if (current >= 0) at[current]++;
  }
  const middle = median(days);
  return {
    enrolled: enrolments.length,
    completed,
    inProgress: enrolments.length - completed,
    medianDays: middle === null ? null : Math.round(middle * 10) / 10,
    steps: rules.map((r, i) => ({ id: r.id, number: i + 1, at: at[i] })),
  };
}
