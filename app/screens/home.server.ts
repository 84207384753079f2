import type { LoaderFunctionArgs } from "@remix-run/node";
import { mayPreview } from "~/access/rules";
import { signedInViewer } from "~/kernel/auth.server";
import { categoryTiles, courseCards, courseStats, recentCourseCards } from "~/models/browse.server";
import { dueSoon } from "~/models/assignment-learner.server";
import { carouselCourseRows, listCarousels } from "~/models/carousel.server";
import { listVisibleCourses } from "~/models/course.server";
import { findVisibleCourse } from "~/models/course-lookup.server";
import { pathsDueSoon } from "~/models/paths/assignments.server";
import { yourPaths } from "~/models/paths/learner.server";
import { richTextToPlain } from "~/utils/sanitize.server";
import { formatDate } from "~/utils/dates";

const HOME_COURSE_LIMIT = 24;
const HOME_PATH_LIMIT = 6;

/**
 * docs/product.md §2 "/" home, streaming-style (issue 18, docs/decisions/024-learner-home.md): the featured course as
 * a hero, "continue watching" for a signed-in learner, each published carousel as a horizontal row, the
 * categories with their covers, and the courses: those the viewer sees (app/access/courses.ts).
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const { organization, db } = context;
  if (!organization || !db) return { kind: "platform" as const };
  const viewer = context.viewer;
  const learnerId = signedInViewer(context)?.person.id ?? null;
  const cover = (fileId: number | null | undefined) => (fileId ? context.platform.imageUrl(organization.id, fileId, "cover") : null);
  // The queries live in the model: a route module importing drizzle or db/tenant would ship them to the browser.
  const featuredRow = organization.featuredCourse ? findVisibleCourse(db, viewer, organization.featuredCourse) : undefined;
  const carouselRows = listCarousels(db, viewer).map((carousel) => ({
    carousel,
    rows: carouselCourseRows(db, viewer, carousel.id),
  }));
  const { items } = listVisibleCourses(db, viewer, { page: 1, perPage: HOME_COURSE_LIMIT });
  const recent = learnerId ? recentCourseCards(db, viewer, 20) : [];
  // "Due soon" (issue 34): one prepared, indexed read, and nothing more for someone with no assignments.
  const due = learnerId ? dueSoon(db, viewer) : [];
  // Episodes, durations and progress for every card of the page, counted once.
  const ids = [
    ...(featuredRow ? [featuredRow.id] : []),
    ...carouselRows.flatMap((c) => c.rows.map((r) => r.id)),
    ...items.map((c) => c.id),
    ...recent.map((c) => c.id),
  ];
  const stats = courseStats(db, ids, learnerId);
  const cards = (rows: Parameters<typeof courseCards>[1]) => courseCards(db, rows, { learnerId, cover, plain: richTextToPlain, stats });
  const carousels = carouselRows.map(({ carousel, rows }) => ({ id: carousel.id, title: carousel.title, courses: cards(rows) }));
  const all = cards(items);
  // Written out here: formatting dates in the browser builds an Intl.DateTimeFormat, a 40 ms task while
  // the page hydrated (docs/decisions/034-lighthouse.md).
  const added = new Map(items.map((c) => [c.id, formatDate(c.createdAt)]));
  return {
    kind: "organization" as const,
    signedIn: learnerId !== null,
    canManage: mayPreview(viewer),
    featured: featuredRow ? cards([featuredRow])[0] : null,
    // "Your paths" (issue 49): the learning paths the learner is on, under way first.
    paths: learnerId
      ? yourPaths(db, viewer, learnerId)
          .slice(0, HOME_PATH_LIMIT)
          .map((p) => ({ ...p, cover: cover(p.coverFileId) }))
      : [],
    dueSoon: [
      // Assigned learning paths first (issue 49): each a program of several of the courses below.
      ...(learnerId ? pathsDueSoon(db, viewer) : []).map((d) => ({
        id: d.pathId,
        path: true,
        title: d.title,
        state: d.state,
        due: formatDate(`${d.dueOn}T12:00:00Z`, { timeZone: "UTC" }),
        done: d.completedAt ? formatDate(d.completedAt) : null,
        locked: false,
      })),
      ...due.map((d) => ({
        id: d.courseId,
        path: false,
        title: d.title,
        state: d.state,
        // Local days, written out here like the other dates (a day at noon UTC is that day in any zone).
        due: formatDate(`${d.dueOn}T12:00:00Z`, { timeZone: "UTC" }),
        done: d.completedAt ? formatDate(d.completedAt) : null,
        locked: !d.access.allowed,
      })),
    ],
    // Started and not finished, most recently watched first.
    continueWatching: cards(recent)
      .filter((c) => (c.progress ?? 0) < 100)
      .slice(0, 12),
    carousels: carousels.filter((c) => c.courses.length > 0),
    categories: categoryTiles(db, viewer, cover).filter((c) => c.courses > 0),
    courses: all.map((c) => ({ ...c, added: added.get(c.id)! })),
  };
}
