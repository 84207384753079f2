import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courseAccess, courseRulesSql, courseRulesState, isVisible } from "../../app/access/courses";
import { anonymousViewer, viewerOfMember, type Viewer } from "../../app/access/viewer";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { asc, eq } from "drizzle-orm";
import { courses, groupMembers, users } from "../../db/tenant";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { columnsRead, schemaOf } from "../helpers/sql-reads";
import { tempDir } from "../helpers/temp";

/**
 * The course rules (app/access/courses.ts) exist twice: as SQL for lists and search (`courseRulesSql`) and
 * as functions asked of one course (`isVisible`, `courseAccess`); and what is kept by their result — a
 * search (app/models/search.server.ts) — is kept while `courseRulesState` is unchanged. These tests hold
 * the three together in a real tenant database: every combination of publication, default access, groups
 * only and prerequisite, for a visitor, learners in no group, in a group or another, with a prerequisite
 * done, and an admin.
 */
let db: TenantDb;
let raw: Database.Database;
let viewers: Array<{ name: string; viewer: Viewer }>;

beforeAll(() => {
  const file = tenantDatabaseFile(tempDir("lectern-rules-"), 1);
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  raw = db.$client;
  raw.exec(`
    insert into groups (id, name) values (1, 'One'), (2, 'Two');
    insert into users (id, email, role) values (1, 'admin@x.test', 'admin'), (2, 'none@x.test', 'learner'), (3, 'one@x.test', 'learner'),
      (4, 'one-done@x.test', 'learner'), (5, 'two@x.test', 'learner');
    insert into group_members (group_id, user_id) values (1, 3), (1, 4), (2, 5);
    insert into courses (id, title, published) values (1, 'Prerequisite', 1);
    insert into course_completions (user_id, course_id, completed_at) values (4, 1, unixepoch());
  `);
  // Every combination, each given to group 1, group 2, both or neither by its number.
  const course = raw.prepare(
    "insert into courses (title, published, block_default_access, force_groups, prerequisite_course_id) values (?, ?, ?, ?, ?)",
  );
  const given = raw.prepare("insert into group_courses (group_id, course_id) values (?, ?)");
  let n = 0;
  for (const published of [0, 1])
    for (const blocked of [0, 1])
      for (const groupsOnly of [0, 1])
        for (const prerequisite of [null, 1]) {
          const id = Number(course.run(`Course ${++n}`, published, blocked, groupsOnly, prerequisite).lastInsertRowid);
          if (n % 2 === 0) given.run(1, id);
          if (n % 3 === 0) given.run(2, id);
        }
  const base = { organization: null, db, language: "en" as const };
  viewers = [{ name: "a visitor", viewer: anonymousViewer(null, db, "en") }];
  for (const person of db.select().from(users).orderBy(asc(users.id)).all()) {
    const memberships = db.select().from(groupMembers).where(eq(groupMembers.userId, person.id)).all();
    viewers.push({ name: person.email, viewer: viewerOfMember(base, person, memberships) });
  }
});
afterAll(() => raw?.close());

/** The course ids each rule selects for a viewer, through the SQL the search runs. */
function selected(viewer: Viewer) {
  const rules = courseRulesSql(db, viewer);
  const ids = (rule: { text: string; params: unknown[] }) =>
    raw
      .prepare(`select id from courses where ${rule.text} order by id`)
      .pluck()
      .all(...rule.params) as number[];
  return { visible: ids(rules.visible), openable: ids(rules.openable) };
}
const everyoneSees = () => JSON.stringify(viewers.map(({ viewer }) => selected(viewer)));
const rulesState = () => raw.prepare(`select ${courseRulesState}`).pluck().get() as string;

describe("the course rules", () => {
  it("read nothing of the database that their state is not made of, for any kind of viewer", () => {
    const schema = schemaOf(raw);
    const stateReads = columnsRead(raw, schema, `select ${courseRulesState}`);
    const missing: string[] = [];
    for (const { name, viewer } of viewers) {
      const rules = courseRulesSql(db, viewer);
      for (const [kind, rule] of Object.entries(rules))
        for (const [table, columns] of columnsRead(raw, schema, `select id from courses where ${rule.text}`, rule.params))
          for (const column of columns) if (!stateReads.get(table)?.has(column)) missing.push(`${table}.${column} (${kind}, ${name})`);
    }
    expect(missing).toEqual([]);
    // It saw what the rules read: publication, default access, groups only, prerequisites, the groups' courses.
    expect([...stateReads.get("courses")!].sort()).toEqual([
      "block_default_access",
      "force_groups",
      "id",
      "prerequisite_course_id",
      "published",
    ]);
    expect([...stateReads.get("group_courses")!].sort()).toEqual(["course_id", "group_id"]);
  });

  it("as SQL select the courses the functions let each viewer see and open, course by course", () => {
    const all = db.select().from(courses).orderBy(asc(courses.id)).all();
    for (const { name, viewer } of viewers) {
      const { visible, openable } = selected(viewer);
      for (const course of all) {
        expect(visible.includes(course.id), `${name} sees course ${course.id}`).toBe(isVisible(db, viewer, course));
        expect(openable.includes(course.id), `${name} opens course ${course.id}`).toBe(courseAccess(db, viewer, course).allowed);
      }
    }
    // The combinations let different viewers see different courses.
    expect(new Set(viewers.map(({ viewer }) => JSON.stringify(selected(viewer)))).size).toBe(viewers.length);
  });

  it("move their state with every change to what any viewer sees or may open, and not with other changes", () => {
    const ids = raw.prepare("select id from courses order by id").pluck().all() as number[];
    // Each change by what it changes, so the test can tell that every kind moved what someone sees.
    const relevant: Array<[kind: string, change: string]> = [];
    for (const id of ids) {
      for (const column of ["published", "block_default_access", "force_groups"])
        relevant.push([column, `update courses set ${column} = 1 - ${column} where id = ${id}`]);
      relevant.push([
        "prerequisite_course_id",
        `update courses set prerequisite_course_id = case when prerequisite_course_id is null then 1 end where id = ${id}`,
      ]);
      for (const group of [1, 2])
        relevant.push([
          "group_courses",
          `delete from group_courses where group_id = ${group} and course_id = ${id}; insert into group_courses (group_id, course_id) select ${group}, ${id} where changes() = 0`,
        ]);
    }
    relevant.push(
      ["a new course", "insert into courses (title, published) values ('New', 1)"],
      ["a course deleted", `delete from courses where id = ${ids.at(-1)}`],
    );
    const unrelated: Array<[kind: string, change: string]> = [
      [
        "other columns",
        "update courses set title = 'Renamed', description = 'Other', position = 9, allow_quizzes = 1, sequential_lessons = 1",
      ],
      ["a group", "insert into groups (name) values ('Three')"],
      ["a category", "insert into categories (name) values ('Unrelated')"],
    ];
    const moved = new Set<string>();
    const before = { sees: everyoneSees(), state: rulesState() };
    for (const [kind, change] of [...relevant, ...unrelated]) {
      raw.exec("begin");
      try {
        raw.exec(change);
        const sees = everyoneSees();
        const state = rulesState();
        if (sees !== before.sees) {
          moved.add(kind);
          expect(state, `${change} changes what someone sees, and so the rules' state`).not.toBe(before.state);
        }
        if (unrelated.some(([, c]) => c === change))
          expect(state, `${change} leaves the rules' state (and a kept search) as it was`).toBe(before.state);
      } finally {
        raw.exec("rollback");
      }
    }
    expect([...moved].sort()).toEqual([...new Set(relevant.map(([kind]) => kind))].sort());
  });
});
