import type { TenantConn } from "~/models/database.server";
import type { SignedInViewer } from "~/access/viewer";
import {
  boardCourseChoices,
  boardPage,
  courseBoard,
  currentBoard,
  learnerSummary,
  PERIODS,
  standing,
  widget,
  widgetValue,
  WIDGETS,
  type Period,
} from "~/models/leaderboard.server";
import { ensureLeaderboard } from "~/models/points.server";
import { formatDate } from "~/utils/dates";

/**
 * A learner's summary for a page, each badge's date written out here: formatting dates in the browser
 * builds an Intl.DateTimeFormat, which cost a 40 ms task while the page hydrated
 * (docs/decisions/034-lighthouse.md).
 */
export function withBadgeDates<S extends { badges: Array<{ awarded_at: string }> }>(summary: S) {
  return { ...summary, badges: summary.badges.map((b) => ({ ...b, awarded_on: formatDate(b.awarded_at) })) };
}

/** What /leaderboard shows one learner; the query chooses the period (`period`) or a course (`course`). */
export function learnerBoardPage(db: TenantConn, viewer: SignedInViewer, query: URLSearchParams, now = new Date()) {
  const userId = viewer.person.id;
  const settings = ensureLeaderboard(db);
  const period: Period = (PERIODS as readonly string[]).includes(query.get("period") ?? "") ? (query.get("period") as Period) : "all";
  const published = boardCourseChoices(db, viewer);
  const courseId = Number(query.get("course"));
  const course = published.find((c) => c.id === courseId) ?? null;
  const board = course ? courseBoard(course.id) : currentBoard(settings, period, now);
  return {
    period,
    course,
    courses: published,
    summary: withBadgeDates(learnerSummary(db, userId, now)),
    entries: boardPage(db, board, { limit: 10 }),
    me: standing(db, board, userId),
    meId: userId,
    widgets: WIDGETS.map((name) => ({ name, entries: widget(db, name, { limit: 5, now }), mine: widgetValue(db, name, userId, now) })),
  };
}
