import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import {
  activitySchema,
  badgeSchema,
  deleteBadge,
  deleteLevel,
  listActivities,
  listBadges,
  resetBoard,
  saveBadge,
  saveLevel,
  levelSchema,
  updateActivity,
} from "~/models/leaderboard-admin.server";
import { boardPage, boardSize, currentBoard, listLevels, PERIODS } from "~/models/leaderboard.server";
import { ensureLeaderboard } from "~/models/points.server";
import { alignTimeZoneOnce, setOrganizationTimeZone } from "~/models/time-zone.server";
import { ACTIVITY_KINDS, BADGE_RULES } from "~/models/vocabulary";
import { apiT, fieldErrors } from "~/utils/api.server";
import { checkbox, optionalNumber, text } from "~/utils/form-data.server";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";

/**
 * The leaderboard tab (admin and dashboard areas): activities, levels, badges, the time zone, the board,
 * and resets. One action; the `intent` field chooses the branch. Every branch validates with zod and
 * answers 400 with translated field errors, changing nothing, or redirects with `?saved=<intent>`.
 */
const capability = "write:leaderboard" as const;

export function leaderboardTabLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability }, (m) => {
      // The organization's time zone (one setting, shared with analytics; the tenant keeps a copy).
      const zone = alignTimeZoneOnce(context.platform.db, m.db, m.organization);
      if (zone.adopted) context.platform.organizations.invalidate();
      const settings = ensureLeaderboard(m.db);
      const board = currentBoard(settings, "all");
      const saved = new URL(request.url).searchParams.get("saved");
      return {
        base: `${m.base}/leaderboard`,
        saved: saved && /^[a-z-]{1,20}$/.test(saved) ? saved : null,
        timeZone: zone.timeZone,
        timeZones: Intl.supportedValuesOf("timeZone"),
        activities: listActivities(m.db).map((a) => ({ kind: a.kind, points: a.points, enabled: a.enabled, dailyCap: a.dailyCap })),
        levels: listLevels(m.db).map((l) => ({ id: l.id, name: l.name, threshold: l.threshold, color: l.color })),
        badges: listBadges(m.db).map((b) => ({ id: b.id, name: b.name, description: b.description, rule: b.rule, threshold: b.threshold, color: b.color })),
        top: boardPage(m.db, board, { limit: 10 }),
        learners: boardSize(m.db, board),
        rules: BADGE_RULES,
      };
    });
}

const idOf = (formData: FormData) => {
  const id = Number(text(formData, "id"));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
};

export function leaderboardTabAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability }, async (m) => {
      const formData = await request.formData();
      const intent = text(formData, "intent") ?? "";
      const t = await apiT(request, context);
      const done = () => redirect(`${m.base}/leaderboard?saved=${intent}`);
      const invalid = (errors: Record<string, string[]>) => json({ intent, id: idOf(formData), errors }, { status: 400 });
      const parse = <S extends z.ZodTypeAny>(schema: S, input: unknown) => schema.safeParse(input) as z.SafeParseReturnType<unknown, z.infer<S>>;

      if (intent === "time-zone") {
        if (!setOrganizationTimeZone(context.platform.db, m.db, m.organization.id, text(formData, "timeZone") ?? "")) {
          return invalid({ timeZone: [t("leaderboard.errors.timeZone")] });
        }
        context.platform.organizations.invalidate();
        return done();
      }
      if (intent === "activity") {
        const kind = z.enum(ACTIVITY_KINDS).safeParse(text(formData, "kind"));
        if (!kind.success) return invalid({ _: [t("validation.invalidOption")] });
        const parsed = parse(activitySchema, { points: optionalNumber(formData, "points"), enabled: checkbox(formData, "enabled"), dailyCap: optionalNumber(formData, "dailyCap") });
        if (!parsed.success) return json({ intent, id: kind.data, errors: fieldErrors(parsed.error, t) }, { status: 400 });
        updateActivity(m.db, kind.data, parsed.data);
        return done();
      }
      if (intent === "level" || intent === "badge") {
        const fields = Object.fromEntries(["name", "threshold", "color", "description", "rule"].map((k) => [k, text(formData, k)]));
        const id = idOf(formData);
        if (intent === "level") {
          const parsed = parse(levelSchema, fields);
          if (!parsed.success) return invalid(fieldErrors(parsed.error, t));
          return saveLevel(m.db, id, parsed.data) ? done() : invalid({ threshold: [t("leaderboard.errors.thresholdTaken")] });
        }
        const parsed = parse(badgeSchema, fields);
        if (!parsed.success) return invalid(fieldErrors(parsed.error, t));
        return saveBadge(m.db, id, parsed.data) ? done() : invalid({ _: [t("api.notFound")] });
      }
      if (intent === "delete-level" || intent === "delete-badge") {
        const id = idOf(formData);
        const removed = id !== null && (intent === "delete-level" ? deleteLevel(m.db, id) : deleteBadge(m.db, id));
        return removed ? done() : invalid({ _: [t("api.notFound")] });
      }
      if (intent === "reset") {
        const period = z.enum(PERIODS).safeParse(text(formData, "period"));
        if (!period.success) return invalid({ period: [t("validation.invalidOption")] });
        resetBoard(m.db, period.data);
        return done();
      }
      return invalid({ _: [t("validation.invalidOption")] });
    });
}
