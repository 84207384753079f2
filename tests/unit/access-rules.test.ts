import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  courseAccess,
  isVisible,
  lessonAccess,
  lessonsAccess,
  openableCourses,
  visibleCourses,
  visibleCoursesPrepared,
} from "../../app/access/courses";
import type { Viewer } from "../../app/access/viewer";
import { createCourse } from "../../app/models/course.server";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { courses, lessons } from "../../db/tenant";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { ruleViewers } from "../helpers/viewers";

/**
 * The course rules exist twice in app/access/courses.ts — as SQL for lists and search, and in JS for a row
 * already read — and must never disagree. Every kind of course (draft or published; open, blocked by
 * default or kept to its groups; with a prerequisite done or not) against every kind of viewer.
 */
let dir: string;
let db: TenantDb;
const ids: Record<string, number> = {};
const viewers: Record<string, Viewer> = {};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-access-"));
  createTenantDatabase(tenantDatabaseFile(dir, 1));
  db = openTenantDatabase(tenantDatabaseFile(dir, 1));
  const sqlite = db.$client;
  let position = 0;
  const course = (name: string, fields: Partial<Parameters<typeof createCourse>[1]>) =>
    (ids[name] = createCourse(db, { title: name, description: "", type: "series", published: true, position: position++, ...fields }).id);
  course("first", {});
  course("second", {});
  course("open", {});
  course("draft", { published: false });
  course("blocked", { blockDefaultAccess: true });
  course("groupOnly", { forceGroups: true });
  course("blockedElsewhere", { blockDefaultAccess: true });
  course("afterFirst", { prerequisiteCourseId: ids.first });
  course("afterSecond", { prerequisiteCourseId: ids.second });
  course("blockedAfterFirst", { blockDefaultAccess: true, prerequisiteCourseId: ids.first });
  const user = sqlite.prepare("insert into users (email, first_name, last_name, role) values (?, '', '', 'learner') returning id");
  const member = (user.get("member@example.test") as { id: number }).id;
  const loner = (user.get("loner@example.test") as { id: number }).id;
  const group = sqlite.prepare("insert into groups (name) values (?) returning id");
  const given = (group.get("given") as { id: number }).id;
  const other = (group.get("other") as { id: number }).id;
  for (const name of ["blocked", "groupOnly", "blockedAfterFirst"])
    sqlite.prepare("insert into group_courses (group_id, course_id) values (?, ?)").run(given, ids[name]);
  sqlite.prepare("insert into group_courses (group_id, course_id) values (?, ?)").run(other, ids.blockedElsewhere);
  sqlite.prepare("insert into group_members (group_id, user_id) values (?, ?)").run(given, member);
  for (const person of [member, loner])
    sqlite.prepare("insert into course_completions (user_id, course_id, completed_at) values (?, ?, unixepoch())").run(person, ids.first);

  Object.assign(viewers, ruleViewers(db, { loner, member, groupIds: [given] }));
});
afterAll(() => {
  db.$client.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const all = () => db.select().from(courses).orderBy(asc(courses.id)).all();
const names = (rows: Array<{ id: number }>) => rows.map((r) => Object.keys(ids).find((k) => ids[k] === r.id)).sort();

describe("the course rules, in SQL and in JS", () => {
  it("list what each viewer should see", () => {
    const listed = (viewer: Viewer) => names(db.select({ id: courses.id }).from(courses).where(visibleCourses(viewer)).all());
    expect(listed(viewers.visitor)).toEqual(["afterFirst", "afterSecond", "first", "open", "second"]);
    expect(listed(viewers.loner)).toEqual(["afterFirst", "afterSecond", "first", "open", "second"]);
    expect(listed(viewers.member)).toEqual([
      "afterFirst",
      "afterSecond",
      "blocked",
      "blockedAfterFirst",
      "first",
      "groupOnly",
      "open",
      "second",
    ]);
    expect(listed(viewers.admin)).toEqual(Object.keys(ids).sort());
  });

  it("agree on which courses are listed: the query, its prepared form and the check of a row", () => {
    for (const [who, viewer] of Object.entries(viewers)) {
      const byQuery = names(db.select({ id: courses.id }).from(courses).where(visibleCourses(viewer)).all());
      const prepared = visibleCoursesPrepared(viewer);
      const byPrepared = names(
        preparedOnce(db, `test.visible.${prepared.key}`, () =>
          db.select({ id: courses.id }).from(courses).where(prepared.where).prepare(),
        ).all(prepared.params),
      );
      const byRow = names(all().filter((c) => isVisible(db, viewer, c)));
      expect(byPrepared, who).toEqual(byQuery);
      expect(byRow, who).toEqual(byQuery);
    }
  });

  it("agree on which listed courses may be opened: the search's SQL and courseAccess", () => {
    for (const [who, viewer] of Object.entries(viewers)) {
      const bySql = names(
        db
          .select({ id: courses.id })
          .from(courses)
          .where(and(visibleCourses(viewer), openableCourses(db, viewer)))
          .all(),
      );
      const byAccess = names(all().filter((c) => isVisible(db, viewer, c) && courseAccess(db, viewer, c).allowed));
      expect(bySql, who).toEqual(byAccess);
    }
    // The prerequisite holds the loner back from one course and not from the other.
    const opened = names(db.select({ id: courses.id }).from(courses).where(openableCourses(db, viewers.loner)).all());
    expect(opened).toContain("afterFirst");
    expect(opened).not.toContain("afterSecond");
    expect(names(db.select({ id: courses.id }).from(courses).where(openableCourses(db, viewers.visitor)).all())).toEqual([]);
  });
});

describe("lessons in order", () => {
  /**
   * A course whose lessons must be taken in order, with a quiz lesson its settings hide (so it counts for
   * nothing) and two lessons sharing a position, as the learner starts and completes them. The expected
   * tables are the rule: a lesson opens once every counted lesson before it is completed. Each lesson is
   * asked about alone (`lessonAccess`: the lesson page, /api) and all together (`lessonsAccess`: the course
   * page's episodes), and the two answers must be the same.
   */
  it("open a lesson once every counted lesson before it is completed, asked alone or all at once", () => {
    const sqlite = db.$client;
    const course = createCourse(db, {
      title: "In order",
      description: "",
      type: "series",
      published: true,
      position: 100,
      sequentialLessons: true,
      allowQuizzes: false,
    });
    const lesson = sqlite.prepare("insert into lessons (course_id, title, kind, position) values (?, ?, ?, ?) returning id");
    const made: Record<string, number> = {};
    for (const [title, kind, position] of [
      ["a", "text", 0],
      ["quiz", "quiz", 1],
      ["b", "text", 2],
      ["c", "text", 2],
      ["d", "text", 3],
    ] as const)
      made[title] = (lesson.get(course.id, title, kind, position) as { id: number }).id;
    const rows = db.select().from(lessons).where(eq(lessons.courseId, course.id)).orderBy(asc(lessons.position), asc(lessons.id)).all();
    const learner = viewers.loner;
    const progress = sqlite.prepare(
      `insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, completed_at) values (?, ?, ?, 30, null)
       on conflict (user_id, lesson_id) do nothing`,
    );
    const finish = sqlite.prepare("update lesson_progress set completed_at = unixepoch() where user_id = ? and lesson_id = ?");
    const complete = {
      run: (userId: number, lessonId: number) => (progress.run(userId, lessonId, course.id), finish.run(userId, lessonId)),
    };
    const open = () => {
      const together = lessonsAccess(db, learner, course, rows);
      return Object.fromEntries(
        rows.map((r) => {
          const alone = lessonAccess(db, learner, course, r);
          expect(together.get(r.id), r.title).toEqual(alone);
          return [r.title, alone.allowed ? "open" : alone.reason];
        }),
      );
    };
    const locked = "previous_lessons";
    expect(open()).toEqual({ a: "open", quiz: locked, b: locked, c: locked, d: locked });
    // Started is not completed.
    progress.run(learner.person!.id, made.a, course.id);
    expect(open()).toEqual({ a: "open", quiz: locked, b: locked, c: locked, d: locked });
    complete.run(learner.person!.id, made.a);
    // The hidden quiz holds nothing back; b and c share a place, so neither waits for the other.
    expect(open()).toEqual({ a: "open", quiz: "open", b: "open", c: "open", d: locked });
    complete.run(learner.person!.id, made.b);
    expect(open().d).toBe(locked);
    complete.run(learner.person!.id, made.c);
    expect(open()).toEqual({ a: "open", quiz: "open", b: "open", c: "open", d: "open" });
    // Where the course shows its quizzes, the quiz counts: b, c and d wait for it.
    const withQuizzes = { ...course, allowQuizzes: true };
    sqlite.prepare("update courses set allow_quizzes = 1 where id = ?").run(course.id);
    expect(Object.fromEntries(rows.map((r) => [r.title, lessonsAccess(db, learner, withQuizzes, rows).get(r.id)!.allowed]))).toEqual({
      a: true,
      quiz: true,
      b: false,
      c: false,
      d: false,
    });
    complete.run(learner.person!.id, made.quiz);
    expect([...lessonsAccess(db, learner, withQuizzes, rows).values()].every((a) => a.allowed)).toBe(true);

    // Someone who may preview opens every lesson; a visitor is asked to sign in, for every lesson alike.
    expect([...lessonsAccess(db, viewers.admin, course, rows).values()].every((a) => a.allowed)).toBe(true);
    expect(new Set([...lessonsAccess(db, viewers.visitor, course, rows).values()].map((a) => (a.allowed ? "open" : a.reason)))).toEqual(
      new Set(["login"]),
    );
    // Another learner's completions open nothing for this one.
    expect(lessonAccess(db, viewers.member, course, rows.find((r) => r.title === "d")!)).toEqual({ allowed: false, reason: locked });
  });
});
