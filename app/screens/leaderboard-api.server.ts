import type { AppLoadContext } from "@remix-run/node";
import { may } from "~/access/rules";
import { z } from "zod";
import type { LeaderboardActivity } from "~/models/leaderboard-admin.server";
import { boardCourse, boardPerson, learnerHidden, PERIODS } from "~/models/leaderboard.server";
import { ensureLeaderboard } from "~/models/points.server";
import { apiInvalid, apiNotFound } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { pageSchema } from "~/utils/pagination";

/** Shared steps of the /api/leaderboard calls (docs/product.md §7 "Leaderboard"): guard, scope, query parsing. */
export async function leaderboardApi(request: Request, context: AppLoadContext) {
  if (!context.db) throw await apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "read:leaderboard" });
  return { db: context.db, auth, settings: ensureLeaderboard(context.db) };
}

export const boardQuery = pageSchema.extend({ period: z.enum(PERIODS).default("all") });

export async function parseQuery<S extends z.ZodTypeAny>(request: Request, context: AppLoadContext, schema: S): Promise<z.infer<S>> {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw await apiInvalid(request, context, parsed.error);
  return parsed.data;
}

/**
 * The learner an `…/{id}` call asks about: a person of this organization whom the caller may see — any
 * visible learner, oneself, or anyone for those who manage the leaderboard. Opted-out learners do not
 * exist for others (404, the same as an unknown id).
 */
export async function visibleLearner(
  request: Request,
  context: AppLoadContext,
  scope: Awaited<ReturnType<typeof leaderboardApi>>,
  raw: string | undefined,
) {
  const id = /^\d{1,15}$/.test(raw ?? "") ? Number(raw) : 0;
  const person = id ? boardPerson(scope.db, id) : undefined;
  const self = scope.auth.person?.id === id;
  if (!person || (!self && !may(scope.auth, "write:leaderboard") && learnerHidden(scope.db, id))) throw await apiNotFound(request, context);
  return person;
}

/** The course an `…/courses/{id}` call asks about, if the caller sees it (app/access/courses.ts); else 404. */
export async function visibleCourseId(
  request: Request,
  context: AppLoadContext,
  scope: Awaited<ReturnType<typeof leaderboardApi>>,
  raw: string | undefined,
) {
  const id = /^\d{1,15}$/.test(raw ?? "") ? Number(raw) : 0;
  const course = id ? boardCourse(scope.db, scope.auth, id) : undefined;
  if (!course) throw await apiNotFound(request, context);
  return course;
}

export function activityApiView(a: LeaderboardActivity) {
  return { kind: a.kind, points: a.points, enabled: a.enabled, daily_cap: a.dailyCap, updated_at: a.updatedAt.toISOString() };
}
