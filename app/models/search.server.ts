import type Database from "better-sqlite3";
import type { TenantConn } from "../../db/open";
import { cachedByVersion } from "../../db/content-cache";
import { connectionOf } from "../../db/connections";
import { preparedOnce } from "../../db/prepared";
import { courseRulesSql, courseRulesState, lessonAccess } from "../access/courses";
import { mayPreview } from "../access/rules";
import type { Viewer } from "../access/viewer";
import type { Course } from "../../db/tenant";
import { courseById } from "./course-lookup.server";
import { getLesson } from "./lesson.server";

/** Full-text search of courses, lessons, materials and spoken words (docs/product.md §2 /search, /api). */

/** FTS5 query from what a person typed: each word as a prefix, all words required. */
export function ftsQuery(q: string) {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words
    .slice(0, 10)
    .map((w) => `"${w}"*`)
    .join(" ");
}

export interface SearchHit {
  /** `transcript`: words spoken in a lesson's video (its caption cues: docs/decisions/036-captions.md). */
  kind: "course" | "lesson" | "material" | "transcript";
  id: number;
  course_id: number;
  title: string;
  snippet: string;
  /** A transcript hit's moment in the video, in whole seconds (the lesson page's `?t=`); null for the others. */
  seconds: number | null;
}

/**
 * Ranked search (SQLite FTS5, bm25 with titles weighing most) as the viewer may see it: the courses they
 * see listed, and the lessons, materials and spoken words (caption cues) of the courses they may open
 * (app/access/courses.ts, in SQL, so the total counts nothing hidden). A lesson's cues make one hit, its
 * best-ranked cue (the earliest of equals). A lesson they may not open yet (lesson order) shows its title
 * without its text or moment, as the course page does.
 */
export function search(db: TenantConn, viewer: Viewer, q: string, { limit = 20, offset = 0 } = {}) {
  const match = ftsQuery(q);
  if (!match) return { items: [] as SearchHit[], total: 0 };
  const client = connectionOf(db) as Database.Database;
  const rules = courseRulesSql(db, viewer);
  const where = `search_index match ? and ((s.kind = 'course' and ${rules.visible.text}) or (s.kind <> 'course' and ${rules.openable.text}))`;
  const params = [match, ...rules.visible.params, ...rules.openable.params];
  // One row per thing found: a lesson's cues are grouped into their best one (migrations/tenant/0025).
  const found = `with hits as (
      select s.kind as kind, s.ref_id as ref, s.course_id as course_id, s.title as title,
             snippet(search_index, 4, '', '', '…', 12) as snippet, bm25(search_index, 0, 0, 0, 10.0, 1.0) as rank
      from search_index s join courses on courses.id = s.course_id
      where ${where}
    ), grouped as (
      select hits.*, cue.lesson_id as cue_lesson, cue.start_ms as start_ms,
             row_number() over (partition by hits.kind, coalesce(cue.lesson_id, hits.ref) order by hits.rank, cue.start_ms) as n
      from hits left join caption_cues cue on hits.kind = 'cue' and cue.id = hits.ref
    )`;
  // Kept while the index and what the rules read are unchanged (`searchVersion`); the rules' parameters
  // (groups, completed prerequisites) are part of the key. Callers get their own array.
  const key = ["search", match, rules.visible.text, rules.openable.text, JSON.stringify(params), limit, offset].join("\u0000");
  const result = cachedByVersion(
    client,
    key,
    () => searchVersion(client),
    () => {
      // Prepared once per connection and rule variant (the rules' text differs only by the viewer's kind); the
      // LIMIT is written to be planned once (db/planned-limit.ts).
      const rows = preparedOnce(client, `search.rows\u0000${where}`, () =>
        client.prepare(
          `${found}
         select case kind when 'cue' then 'transcript' else kind end as kind, coalesce(cue_lesson, ref) as id, course_id,
                case kind when 'cue' then coalesce((select title from lessons where lessons.id = cue_lesson), '') else title end as title,
                snippet, case kind when 'cue' then start_ms / 1000 end as seconds
         from grouped where n = 1
         order by rank limit ? + 0 offset ?`,
        ),
      ).all(...params, limit, offset) as SearchHit[];
      const total = preparedOnce(client, `search.total\u0000${where}`, () =>
        client.prepare(`${found} select count(*) as n from grouped where n = 1`),
      ).get(...params) as { n: number };
      return { items: rows.map((i) => Object.freeze({ ...i, snippet: i.snippet.replace(/<[^>]*>/g, "") })), total: total.n };
    },
  );
  return { items: lessonTextsShown(db, viewer, result.items), total: result.total };
}

/**
 * What a search's result depends on, exactly: the index (FTS5 rewrites its structure record, id 10 of
 * search_index_data, with a new write counter on every change committed to it), and everything the course
 * rules read (`courseRulesState`, made from the rules' own list of inputs: publishing does not touch the
 * index). Lesson titles of transcript hits come from the index's own rows' lessons, which the index follows.
 */
const SEARCH_VERSION = `select coalesce((select hex(block) from search_index_data where id = 10), '') || '|' || ${courseRulesState}`;

function searchVersion(client: Database.Database) {
  return preparedOnce(client, "search.version", () => client.prepare(SEARCH_VERSION).pluck()).get() as string;
}

/** The hits as given, less the text of lessons the viewer may not open yet (lesson order): a page at most. */
function lessonTextsShown(db: TenantConn, viewer: Viewer, hits: readonly SearchHit[]): SearchHit[] {
  if (mayPreview(viewer)) return [...hits];
  const courseCache = new Map<number, Course | undefined>();
  return hits.map((hit) => {
    if (hit.kind !== "lesson" && hit.kind !== "transcript") return hit;
    if (!courseCache.has(hit.course_id)) courseCache.set(hit.course_id, courseById(db, hit.course_id));
    const course = courseCache.get(hit.course_id);
    if (!course?.sequentialLessons) return hit;
    const lesson = getLesson(db, hit.id);
    return lesson && lessonAccess(db, viewer, course, lesson).allowed ? hit : { ...hit, snippet: "", seconds: null };
  });
}
