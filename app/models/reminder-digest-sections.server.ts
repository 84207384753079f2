import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import type { TenantDb } from "../../db/open";
import {
  assignmentPeople,
  assignments,
  courses,
  groups,
  learningPaths,
  pathAssignmentPeople,
  pathAssignments,
  users,
} from "../../db/tenant";
import { daysBetween } from "../utils/calendar";
import { DIGEST_MAX_LINES, type DigestLine, type DigestSection } from "./reminder-mail.server";
import { fullName, type RunContext } from "./reminder-run.server";

/**
 * What the weekly digest lists (docs/decisions/038-reminders.md "The weekly digest"): the overdue people,
 * by course (and learning path, issue 49) for organization admins and by group for group admins. Each section
 * is worked out once, whoever gets it.
 */

interface OverdueRow {
  userId: number;
  person: { firstName: string; lastName: string; email: string };
  /** A course's id, or a learning path's (`path`). */
  courseId: number;
  path: boolean;
  /** The course's title, or the path's. */
  courseTitle: string;
  groupId: number | null;
  dueOn: string;
}

/** What one digest lists, and how many people are overdue in it (one overdue on two courses counts once). */
export interface DigestContents {
  sections: DigestSection[];
  people: number;
}

/**
 * Every open person-assignment overdue on `today`, with the person (enabled, with a role here) and course
 * it names, ordered by course title, course, last and first name, person. The people and courses are read
 * once each and matched here: no join or sort in SQL (this reads every open row of the organization, 200,000
 * in the bench).
 */
function overdueRows(db: TenantDb, today: string): OverdueRow[] {
  const people = new Map(
    db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(and(isNull(users.disabledAt), isNotNull(users.role)))
      .all()
      .map((p) => [p.id, p]),
  );
  const titles = new Map(
    db
      .select({ id: courses.id, title: courses.title })
      .from(courses)
      .all()
      .map((c) => [c.id, c.title]),
  );
  const overdue: OverdueRow[] = [];
  const open = db
    .select({
      userId: assignmentPeople.userId,
      courseId: assignments.courseId,
      groupId: assignments.groupId,
      dueOn: assignmentPeople.dueOn,
    })
    .from(assignmentPeople)
    .innerJoin(assignments, eq(assignments.id, assignmentPeople.assignmentId))
    .where(and(isNull(assignmentPeople.completedAt), isNull(assignmentPeople.leftAt), lt(assignmentPeople.dueOn, today)))
    .all();
  for (const r of open) {
    const person = people.get(r.userId);
    if (person) overdue.push({ ...r, path: false, person, courseTitle: titles.get(r.courseId) ?? "" });
  }
  for (const r of overduePathRows(db, today)) {
    const person = people.get(r.userId);
    if (person) overdue.push({ ...r, path: true, person, courseTitle: r.title });
  }
  const before = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return overdue.sort(
    (a, b) =>
      before(a.courseTitle, b.courseTitle) ||
      Number(a.path) - Number(b.path) ||
      a.courseId - b.courseId ||
      before(a.person.lastName, b.person.lastName) ||
      before(a.person.firstName, b.person.firstName) ||
      a.userId - b.userId,
  );
}

/** The open path assignments overdue on `today`, with their path's title. */
function overduePathRows(db: TenantDb, today: string) {
  return db
    .select({
      userId: pathAssignmentPeople.userId,
      courseId: pathAssignments.pathId,
      title: learningPaths.title,
      groupId: pathAssignments.groupId,
      dueOn: pathAssignmentPeople.dueOn,
    })
    .from(pathAssignmentPeople)
    .innerJoin(pathAssignments, eq(pathAssignments.id, pathAssignmentPeople.assignmentId))
    .innerJoin(learningPaths, eq(learningPaths.id, pathAssignments.pathId))
    .where(and(isNull(pathAssignmentPeople.completedAt), isNull(pathAssignmentPeople.leftAt), lt(pathAssignmentPeople.dueOn, today)))
    .all();
}

/** The sections of this week's digests: the organization's (by course) and each group's, each made when first asked for. */
export class DigestSections {
  readonly #overdue: OverdueRow[];
  readonly #ofGroup = new Map<number, OverdueRow[]>();
  readonly #groupNames: Map<number, string>;
  readonly #groupSections = new Map<number, DigestSection>();
  #organization: DigestContents | null = null;

  constructor(
    db: TenantDb,
    private readonly run: Pick<RunContext, "origin" | "today">,
  ) {
    this.#overdue = overdueRows(db, run.today);
    for (const r of this.#overdue) {
      if (r.groupId !== null) (this.#ofGroup.get(r.groupId) ?? this.#ofGroup.set(r.groupId, []).get(r.groupId)!).push(r);
    }
    this.#groupNames = new Map(
      db
        .select({ id: groups.id, name: groups.name })
        .from(groups)
        .all()
        .map((g) => [g.id, g.name]),
    );
  }

  /** An organization admin's: every overdue person, by course. */
  organization(): DigestContents {
    if (!this.#organization) {
      const byCourse = new Map<string, DigestSection>();
      for (const r of this.#overdue) {
        const key = `${r.path ? "paths" : "courses"}/${r.courseId}`;
        let section = byCourse.get(key);
        if (!section) {
          section = { title: r.courseTitle, path: r.path, url: `${this.run.origin}/${key}`, lines: [], hidden: 0 };
          byCourse.set(key, section);
        }
        if (section.lines.length < DIGEST_MAX_LINES) section.lines.push(this.#line(r));
        else section.hidden!++;
      }
      this.#organization = { sections: [...byCourse.values()], people: new Set(this.#overdue.map((r) => r.userId)).size };
    }
    return this.#organization;
  }

  /** A group admin's: the overdue people of their groups' assignments, by group (by name). */
  groups(administered: number[]): DigestContents {
    const mine = administered.filter((id) => this.#ofGroup.has(id));
    const sections = mine.map((id) => this.#groupSection(id)).sort((a, b) => a.title.localeCompare(b.title));
    return { sections, people: new Set(mine.flatMap((id) => this.#ofGroup.get(id)!.map((r) => r.userId))).size };
  }

  #groupSection(id: number) {
    let section = this.#groupSections.get(id);
    if (!section) {
      const rows = this.#ofGroup.get(id)!;
      section = {
        title: this.#groupNames.get(id) ?? "",
        url: `${this.run.origin}/groups/${id}`,
        lines: rows.slice(0, DIGEST_MAX_LINES).map((r) => this.#line(r)),
        hidden: Math.max(0, rows.length - DIGEST_MAX_LINES),
      };
      this.#groupSections.set(id, section);
    }
    return section;
  }

  #line(r: OverdueRow): DigestLine {
    return {
      name: fullName(r.person),
      email: r.person.email,
      courseTitle: r.courseTitle,
      path: r.path,
      dueOn: r.dueOn,
      daysOverdue: daysBetween(r.dueOn, this.run.today),
    };
  }
}
