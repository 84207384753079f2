import { integer, sqliteTable } from "drizzle-orm/sqlite-core";

/*
 * Rows that triggers move when something changes, so the server knows without reading the tables
 * themselves: whether a kept page is still current, and what the platform database must copy.
 */

/*
 * ——— Visitors' page cache (docs/decisions/026-visitor-page-cache.md) ———
 * One row whose `version` moves, by triggers (migration 0018), on every change to a table a visitor's
 * browsing page reads (courses, lessons, files, categories, carousels, carousel_courses): the server keeps
 * a visitor's rendered page only while this number is unchanged. A browsing page that starts reading
 * another table must add that table's triggers.
 */
export const contentVersion = sqliteTable("content_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/*
 * ——— Signed-in learners' kept pages (docs/decisions/039-learner-page-cache.md) ———
 * A number per person, moved by triggers (migrations 0031, 0032) on every change to a row of theirs that a
 * learner's home, course or leaderboard page reads (progress, completions, certificates, bookmarks,
 * assignments to them, group memberships, badges, watch time, their own row). With `content_version` (row
 * 1; a row 2 that migration 0031 moves with the shared tables those pages read and visitors' pages do not:
 * assignments, links, materials, ratings, leaderboard settings; and a row 3, compared by the leaderboard
 * alone, that migration 0032 moves with points, streaks, levels, badges and names) it says whether a kept
 * page still shows what it would now. tests/integration/learner-page-cache.test.ts lists the tables those
 * pages read and fails when one is covered by none.
 */
export const userVersions = sqliteTable("user_versions", {
  userId: integer("user_id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/*
 * ——— What the platform database keeps of this organization (issue 31; db/platform.ts) ———
 * Triggers (migration 0020) add a row for every person added, removed or changed in what /admin/users
 * shows (e-mail, name, role, disabled), and a row with no user for every course added or removed. The
 * server carries them over to the platform database and empties the table (app/models/tenant-summary.server.ts).
 */
export const summaryChanges = sqliteTable("summary_changes", {
  id: integer("id").primaryKey(),
  /** The person whose entry changed; null when the number of courses did. */
  userId: integer("user_id"),
});
