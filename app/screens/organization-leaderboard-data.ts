import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import type { SubmissionResult } from "@conform-to/react";
import {
  deleteBadge,
  deleteLevel,
  listActivities,
  listBadges,
  resetBoard,
  saveBadge,
  saveLevel,
  updateActivity,
} from "~/models/leaderboard-admin.server";
import { boardPage, boardSize, currentBoard, listLevels } from "~/models/leaderboard.server";
import { activityFormSchema, badgeSchema, levelSchema, resetFormSchema } from "~/models/forms/leaderboard";
import { parseForm } from "~/utils/form";
import { ensureLeaderboard } from "~/models/points.server";
import { alignTimeZoneOnce, setOrganizationTimeZone } from "~/models/time-zone.server";
import { ACTIVITY_KINDS, BADGE_RULES } from "~/models/vocabulary";
import { apiT } from "~/utils/api.server";
import { readForm, text } from "~/utils/form-data.server";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";

/**
 * The leaderboard tab (admin and dashboard areas): activities, levels, badges, the time zone, the board,
 * and resets. One action; the `intent` field chooses the branch. Each form is read with parseForm (app/utils/form.ts)
 * and answers 400 with conform's reply (its messages, what was typed), changing nothing, or redirects with
 * `?saved=<intent>`.
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
        badges: listBadges(m.db).map((b) => ({
          id: b.id,
          name: b.name,
          description: b.description,
          rule: b.rule,
          threshold: b.threshold,
          color: b.color,
        })),
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
      const formData = await readForm(request, context);
      const intent = text(formData, "intent") ?? "";
      const t = await apiT(request, context);
      const done = () => redirect(`${m.base}/leaderboard?saved=${intent}`);
      const invalid = (errors: Record<string, string[]>) => json({ intent, id: idOf(formData), errors }, { status: 400 });
      /** A conform form's answer: its reply, and which row's form it is. */
      const refused = (id: number | string | null, result: SubmissionResult<string[]>) =>
        json({ intent, id, errors: {}, result }, { status: 400 });

      if (intent === "time-zone") {
        if (!setOrganizationTimeZone(context.platform.db, m.db, m.organization.id, text(formData, "timeZone") ?? "")) {
          return invalid({ timeZone: [t("leaderboard.errors.timeZone")] });
        }
        context.platform.organizations.invalidate();
        return done();
      }
      if (intent === "activity") {
        const submission = parseForm(formData, activityFormSchema);
        if (submission.status !== "success") {
          const kind = text(formData, "kind") ?? "";
          if (!(ACTIVITY_KINDS as readonly string[]).includes(kind)) return invalid({ _: [t("validation.invalidOption")] });
          return refused(kind, submission.reply());
        }
        const { kind, ...activity } = submission.value;
        updateActivity(m.db, kind, activity);
        return done();
      }
      if (intent === "level") {
        const id = idOf(formData);
        const submission = parseForm(formData, levelSchema);
        if (submission.status !== "success") return refused(id, submission.reply());
        return saveLevel(m.db, id, submission.value)
          ? done()
          : refused(id, submission.reply({ fieldErrors: { threshold: ["leaderboard.errors.thresholdTaken"] } }));
      }
      if (intent === "badge") {
        const id = idOf(formData);
        const submission = parseForm(formData, badgeSchema);
        if (submission.status !== "success") return refused(id, submission.reply());
        return saveBadge(m.db, id, submission.value) ? done() : invalid({ _: [t("api.notFound")] });
      }
      if (intent === "delete-level" || intent === "delete-badge") {
        const id = idOf(formData);
        const removed = id !== null && (intent === "delete-level" ? deleteLevel(m.db, id) : deleteBadge(m.db, id));
        return removed ? done() : invalid({ _: [t("api.notFound")] });
      }
      if (intent === "reset") {
        const submission = parseForm(formData, resetFormSchema);
        if (submission.status !== "success") return refused(null, submission.reply());
        resetBoard(m.db, submission.value.period);
        return done();
      }
      return invalid({ _: [t("validation.invalidOption")] });
    });
}
