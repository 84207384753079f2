import { z } from "zod";
import { listActivities, updateActivity } from "~/models/leaderboard-admin.server";
import {
  boardPage,
  boardSize,
  courseBoard,
  currentBoard,
  learnerSummary,
  PERIODS,
  standing,
  watchSeconds,
  widget,
  widgetValue,
  WIDGETS,
  type Widget,
} from "~/models/leaderboard.server";
import { levelResource } from "~/models/level-resource.server";
import { ACTIVITY_KINDS, type ActivityKind } from "~/models/vocabulary";
import { activityApiView, boardQuery, leaderboardApi, visibleCourseId, visibleLearner } from "~/screens/leaderboard-api.server";
import { apiNotFound } from "~/utils/api.server";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, E, guarded, id, isoDate, page, type ApiCall } from "../contract.server";
import { resourceCalls } from "../resource.server";

/** Points, levels, badges and boards (docs/product.md §7 "leaderboard", docs/decisions/016-leaderboard.md). */
const levelView = z.object({ id, name: z.string(), threshold: z.number().int(), color: z.string(), updated_at: isoDate });

const stamp = { created_at: "2026-05-04T09:30:00.000Z", updated_at: "2026-05-04T09:30:00.000Z" };

const meta1 = { current_page: 1, per_page: 20, total: 1, last_page: 1 };
const boardMeta = meta1;

export const rankQuery = z.object({ period: z.enum(PERIODS).default("all") });
export const activityBody = z.object({
  points: z.number().int().min(0).max(100000).optional(),
  enabled: z.boolean().optional(),
  daily_cap: z.number().int().min(1).max(1000).nullable().optional(),
});
const kindOf = (raw: string | undefined) => ((ACTIVITY_KINDS as readonly string[]).includes(raw ?? "") ? (raw as ActivityKind) : null);

const boardEntry = z.object({ rank: z.number().int(), user_id: id, name: z.string(), points: z.number() });
const standingView = z.object({ user_id: id, points: z.number(), rank: z.number().int(), hidden: z.boolean() });
const activityView = z.object({
  kind: z.string(),
  points: z.number().int(),
  enabled: z.boolean(),
  daily_cap: z.number().int().nullable(),
  updated_at: isoDate,
});
const boardLevelView = z.object({ id, name: z.string(), threshold: z.number().int(), color: z.string() }).passthrough().nullable();
export const leaderboardCalls: ApiCall[] = [
  ...resourceCalls({
    base: "/api/leaderboard/levels",
    tag: "Leaderboard",
    noun: "level",
    view: levelView,
    resource: levelResource,
    createExample: { name: "Gold", threshold: 1000, color: "#d4a017" },
    updateExample: { threshold: 1200 },
    replyExample: { id: 3, name: "Gold", threshold: 1000, color: "#d4a017", updated_at: stamp.updated_at },
  }),
  call({
    method: "GET",
    path: "/api/leaderboard",
    tag: "Leaderboard",
    summary: "The organization's leaderboard",
    description:
      "Best first; `me` is the caller's own standing (also when outside the page or opted out). Opted-out learners are never listed.",
    access: "read:leaderboard",
    query: boardQuery,
    reply: page(boardEntry).extend({ period: z.string(), key: z.string(), me: standingView.nullable() }),
    errors: guarded(E.invalid),
    example: {
      query: { period: "month" },
      reply: {
        period: "month",
        key: "2026-05",
        data: [{ rank: 1, user_id: 12, name: "Ada Lovelace", points: 320 }],
        meta: boardMeta,
        me: { user_id: 12, points: 320, rank: 1, hidden: false },
      },
    },
    // Opted-out learners are never listed; `me` is the caller's own standing.
    handler: async ({ request, context, query }) => {
      const scope = await leaderboardApi(request, context);
      const board = currentBoard(scope.settings, query.period);
      const items = boardPage(scope.db, board, { limit: query.per_page, offset: (query.page - 1) * query.per_page });
      const me = scope.auth.person ? standing(scope.db, board, scope.auth.person.id) : null;
      return {
        period: query.period,
        key: board.key,
        ...paginated(items, boardSize(scope.db, board), { page: query.page, perPage: query.per_page }),
        me,
      };
    },
  }),
  call({
    method: "GET",
    path: "/api/leaderboard/{widget}",
    tag: "Leaderboard",
    summary: "A leaderboard widget",
    description:
      "`bookmarks` (last 30 days), `watch-time` (seconds, last 7 days) or `streak` (days): the top ten and the caller's own value.",
    access: "read:leaderboard",
    reply: z.object({
      widget: z.string(),
      data: z.array(z.object({ rank: z.number().int(), user_id: id, name: z.string(), value: z.number() })),
      me: z.object({ user_id: id, value: z.number() }).nullable(),
    }),
    errors: guarded(),
    example: {
      reply: { widget: "streak", data: [{ rank: 1, user_id: 12, name: "Ada Lovelace", value: 9 }], me: { user_id: 12, value: 9 } },
    },
    handler: async ({ request, context, params }) => {
      const scope = await leaderboardApi(request, context);
      const name = params.widget as Widget;
      if (!WIDGETS.includes(name)) return apiNotFound(request, context);
      const me = scope.auth.person ? { user_id: scope.auth.person.id, value: widgetValue(scope.db, name, scope.auth.person.id) } : null;
      return { widget: name, data: widget(scope.db, name), me };
    },
  }),
  call({
    method: "GET",
    path: "/api/leaderboard/courses/{id}",
    tag: "Leaderboard",
    summary: "Points earned in one course",
    access: "read:leaderboard",
    query: pageSchema,
    reply: page(boardEntry).extend({ course_id: id, title: z.string(), me: standingView.nullable() }),
    errors: guarded(E.invalid),
    example: {
      reply: {
        course_id: 7,
        title: "Safety basics",
        data: [{ rank: 1, user_id: 12, name: "Ada Lovelace", points: 40 }],
        meta: boardMeta,
        me: null,
      },
    },
    handler: async ({ request, context, params, query }) => {
      const scope = await leaderboardApi(request, context);
      const course = await visibleCourseId(request, context, scope, params.id);
      const board = courseBoard(course.id);
      const items = boardPage(scope.db, board, { limit: query.per_page, offset: (query.page - 1) * query.per_page });
      const me = scope.auth.person ? standing(scope.db, board, scope.auth.person.id) : null;
      return {
        course_id: course.id,
        title: course.title,
        ...paginated(items, boardSize(scope.db, board), { page: query.page, perPage: query.per_page }),
        me,
      };
    },
  }),
  call({
    method: "GET",
    path: "/api/leaderboard/points/{id}",
    tag: "Leaderboard",
    summary: "A learner's points, level, streak and badges",
    description: "`id` is the user's id. `hidden` (opted out) is in the learner's own reply only.",
    access: "read:leaderboard",
    reply: z
      .object({
        user_id: id,
        points: z.number(),
        level: boardLevelView,
        next_level: boardLevelView,
        percent: z.number(),
        rank: z.number().int(),
        streak: z.number().int(),
        longest_streak: z.number().int(),
        badges: z.array(z.object({ id, name: z.string() }).passthrough()),
        month_points: z.number(),
        week_points: z.number(),
        hidden: z.boolean().optional(),
      })
      .passthrough(),
    errors: guarded(),
    example: {
      reply: {
        user_id: 12,
        points: 320,
        level: { id: 2, name: "Silver", threshold: 250, color: "#c0c0c0" },
        next_level: { id: 3, name: "Gold", threshold: 1000, color: "#d4a017" },
        percent: 9,
        to_next: 680,
        rank: 1,
        streak: 9,
        longest_streak: 12,
        badges: [],
        month_points: 120,
        week_points: 40,
        hidden: false,
      },
    },
    // The opt-out flag is the learner's own business: shown to them only.
    handler: async ({ request, context, params }) => {
      const scope = await leaderboardApi(request, context);
      const person = await visibleLearner(request, context, scope, params.id);
      const { hidden, ...summary } = learnerSummary(scope.db, person.id);
      const month = standing(scope.db, currentBoard(scope.settings, "month"), person.id).points;
      const week = standing(scope.db, currentBoard(scope.settings, "week"), person.id).points;
      const own = scope.auth.person?.id === person.id;
      return { user_id: person.id, ...summary, month_points: month, week_points: week, ...(own ? { hidden } : {}) };
    },
  }),
  call({
    method: "GET",
    path: "/api/leaderboard/rank/{id}",
    tag: "Leaderboard",
    summary: "A learner's rank on a board",
    access: "read:leaderboard",
    query: rankQuery,
    reply: z.object({ user_id: id, period: z.string(), key: z.string(), rank: z.number().int(), points: z.number() }),
    errors: guarded(E.invalid),
    example: { query: { period: "week" }, reply: { user_id: 12, period: "week", key: "2026-W19", rank: 3, points: 40 } },
    handler: async ({ request, context, params, query }) => {
      const scope = await leaderboardApi(request, context);
      const person = await visibleLearner(request, context, scope, params.id);
      const board = currentBoard(scope.settings, query.period);
      const { rank, points } = standing(scope.db, board, person.id);
      return { user_id: person.id, period: query.period, key: board.key, rank, points };
    },
  }),
  call({
    method: "GET",
    path: "/api/leaderboard/watch-time/{id}",
    tag: "Leaderboard",
    summary: "A learner's watch time",
    description: "Seconds in the last 7 days and in all.",
    access: "read:leaderboard",
    reply: z.object({ user_id: id, last_7_days_seconds: z.number(), total_seconds: z.number() }),
    errors: guarded(),
    example: { reply: { user_id: 12, last_7_days_seconds: 1800, total_seconds: 36000 } },
    handler: async ({ request, context, params }) => {
      const scope = await leaderboardApi(request, context);
      const person = await visibleLearner(request, context, scope, params.id);
      return {
        user_id: person.id,
        last_7_days_seconds: watchSeconds(scope.db, person.id, 7),
        total_seconds: watchSeconds(scope.db, person.id, null),
      };
    },
  }),
  call({
    method: "GET",
    path: "/api/leaderboard/activities",
    tag: "Leaderboard",
    summary: "What each activity earns",
    access: "read:leaderboard",
    reply: page(activityView),
    errors: guarded(),
    example: {
      reply: {
        data: [{ kind: "lesson_completed", points: 10, enabled: true, daily_cap: null, updated_at: stamp.created_at }],
        meta: meta1,
      },
    },
    handler: async ({ request, context }) => {
      const scope = await leaderboardApi(request, context);
      const items = listActivities(scope.db).map(activityApiView);
      return paginated(items, items.length, { page: 1, perPage: Math.max(items.length, 1) });
    },
  }),
  call({
    method: "GET",
    path: "/api/leaderboard/activities/{id}",
    tag: "Leaderboard",
    summary: "One activity's points",
    description: "`id` is the activity's kind, e.g. `lesson_completed`.",
    access: "read:leaderboard",
    reply: activityView,
    errors: guarded(),
    example: { reply: { kind: "lesson_completed", points: 10, enabled: true, daily_cap: null, updated_at: stamp.created_at } },
    handler: async ({ request, context, params }) => {
      const scope = await leaderboardApi(request, context);
      const activity = listActivities(scope.db).find((a) => a.kind === kindOf(params.id));
      return activity ? activityApiView(activity) : apiNotFound(request, context);
    },
  }),
  call({
    method: "PUT",
    path: "/api/leaderboard/activities/{id}",
    tag: "Leaderboard",
    summary: "Change an activity's points",
    access: "write:leaderboard",
    body: activityBody,
    reply: activityView,
    errors: guarded(E.invalid, E.invalidBody),
    example: {
      body: { points: 15, daily_cap: 5 },
      reply: { kind: "lesson_completed", points: 15, enabled: true, daily_cap: 5, updated_at: stamp.created_at },
    },
    handler: async ({ request, context, params, body }) => {
      const scope = await leaderboardApi(request, context);
      const existing = listActivities(scope.db).find((a) => a.kind === kindOf(params.id));
      if (!existing) return apiNotFound(request, context);
      const updated = updateActivity(scope.db, existing.kind, {
        points: body.points ?? existing.points,
        enabled: body.enabled ?? existing.enabled,
        dailyCap: body.daily_cap === undefined ? existing.dailyCap : body.daily_cap,
      });
      return activityApiView(updated!);
    },
  }),
];
