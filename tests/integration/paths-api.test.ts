import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, tenantDb } from "../helpers/auth";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { execTenant, insertSession } from "../helpers/sessions";

/**
 * Learning paths through /api against the real server (issue 49): an admin makes a path and its steps, a
 * learner finds it, enrols, and finishes it by completing its courses; the path is done once, at the completion
 * that finishes its last step. Drafts and steps with a course the organization lacks are refused.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
let admin: string;
let learner: string;
const courses: number[] = [];
const lessons: number[] = [];

beforeAll(async () => {
  server = await startInProcess();
  admin = insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
  learner = insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "api" });
  for (const title of ["Path basics", "Elective A", "Elective B"]) {
    const course = (await api(server, ORG, "POST", "courses", { token: admin, body: { title, type: "series", published: true } })).json()
      .payload.id;
    courses.push(course);
    lessons.push(
      (await api(server, ORG, "POST", "lessons", { token: admin, body: { course_id: course, title: `${title} 1`, kind: "text" } })).json()
        .payload.id,
    );
  }
});
afterAll(async () => {
  await server?.stop();
});

describe("learning paths through /api", () => {
  let pathId: number;

  it("are made by an admin, with steps replaced whole; a foreign course is refused and drafts stay hidden", async () => {
    const made = await api(server, ORG, "POST", "learning-paths", { token: admin, body: { title: "Starter path" } });
    expect(made.status).toBe(201);
    pathId = made.json().payload.id;
    expect((await api(server, ORG, "POST", "learning-paths", { token: learner, body: { title: "Mine" } })).status).toBe(403);
    const foreign = await api(server, ORG, "PUT", `learning-paths/${pathId}/steps`, {
      token: admin,
      body: { steps: [{ course_ids: [99999] }] },
    });
    expect(foreign.status).toBe(422);
    const steps = await api(server, ORG, "PUT", `learning-paths/${pathId}/steps`, {
      token: admin,
      body: { steps: [{ course_ids: [courses[0]] }, { kind: "choice", course_ids: [courses[1], courses[2]], required: 1 }] },
    });
    expect(steps.status).toBe(200);
    expect(steps.json().payload.steps.map((s: any) => s.course_ids)).toEqual([[courses[0]], [courses[1], courses[2]]]);
    expect((await api(server, ORG, "GET", `learning-paths/${pathId}`, { token: learner })).status).toBe(404);
    expect((await api(server, ORG, "POST", `learning-paths/${pathId}/enrolments`, { token: learner })).status).toBe(404);
    const published = await api(server, ORG, "PUT", `learning-paths/${pathId}`, {
      token: admin,
      body: { title: "Starter path", published: true },
    });
    expect(published.status).toBe(200);
  });

  it("let a learner enrol and follow it to the end, done at the completion of its last step", async () => {
    const listed = (await api(server, ORG, "GET", "learning-paths", { token: learner })).json().payload.data;
    expect(listed.map((p: any) => p.title)).toContain("Starter path");
    const enrolled = await api(server, ORG, "POST", `learning-paths/${pathId}/enrolments`, { token: learner });
    expect(enrolled.status).toBe(201);
    expect(enrolled.json().payload).toMatchObject({ source: "self", percent: 0, next_course_id: courses[0], completed_at: null });
    expect(enrolled.json().payload.steps.map((s: any) => s.state)).toEqual(["open", "locked"]);

    const complete = (lesson: number) =>
      api(server, ORG, "POST", "lesson-progresses", {
        token: learner,
        body: { lesson_id: lesson, position_seconds: 0, watched_seconds: 0, completed: true },
      });
    expect((await complete(lessons[0])).status).toBe(200);
    const halfway = (await api(server, ORG, "GET", `learning-paths/${pathId}/progress`, { token: learner })).json().payload;
    expect(halfway).toMatchObject({ percent: 50, next_course_id: courses[1], completed_at: null });
    expect((await complete(lessons[2])).status).toBe(200);
    const done = (await api(server, ORG, "GET", `learning-paths/${pathId}/progress`, { token: learner })).json().payload;
    expect(done.percent).toBe(100);
    expect(done.completed_at).not.toBeNull();
    expect(done.steps.map((s: any) => s.state)).toEqual(["done", "done"]);
  });

  it("issue the path's certificate, points and badge once when two completions finish it at the same time", async () => {
    // A path with a choice of one of two, both courses completed by requests sent together: each finds the path
    // done, one marks it.
    const badge = execTenant(
      server,
      1,
      "insert into badges (name, rule, threshold) values ('Path runner', 'points', 1000000)",
    ).lastInsertRowid;
    const made = await api(server, ORG, "POST", "learning-paths", {
      token: admin,
      body: { title: "Race path", published: true, allow_certificates: true, points: 300, badge_id: Number(badge) },
    });
    expect(made.status).toBe(201);
    const race = made.json().payload.id;
    await api(server, ORG, "PUT", `learning-paths/${race}/steps`, {
      token: admin,
      body: { steps: [{ kind: "choice", course_ids: [courses[1], courses[2]], required: 1 }] },
    });
    const racer = insertSession(server, { organizationId: 1 }, { email: "sofia.wright.2@acme.test", kind: "api" });
    expect((await api(server, ORG, "POST", `learning-paths/${race}/enrolments`, { token: racer })).status).toBe(201);
    const replies = await Promise.all(
      [lessons[1], lessons[2]].map((lesson) =>
        api(server, ORG, "POST", "lesson-progresses", {
          token: racer,
          body: { lesson_id: lesson, position_seconds: 0, watched_seconds: 0, completed: true },
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    const db = tenantDb(server, 1);
    try {
      const user = (db.prepare("select id from users where email = 'sofia.wright.2@acme.test'").get() as { id: number }).id;
      const issued = db
        .prepare("select course_title, issued_for_path_id, course_id from certificates where user_id = ? and issued_for_path_id = ?")
        .all(user, race);
      expect(issued).toEqual([{ course_title: "Race path", issued_for_path_id: race, course_id: null }]);
      expect(
        db
          .prepare("select points from points_ledger where user_id = ? and activity = 'path_completed' and ref = ?")
          .all(user, `path:${race}`),
      ).toEqual([{ points: 300 }]);
      expect(db.prepare("select count(*) as n from user_badges where user_id = ? and badge_id = ?").get(user, badge)).toEqual({ n: 1 });
    } finally {
      db.close();
    }
    const certificates = (await api(server, ORG, "GET", "certificates", { token: racer })).json().payload.data;
    expect(certificates.filter((c: any) => c.path_id === race).map((c: any) => c.course_title)).toEqual(["Race path"]);
  });
});
