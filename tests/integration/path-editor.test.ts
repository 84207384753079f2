import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, tenantDb } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * The admins' learning path screens against the real server, as a browser without JavaScript posts them
 * (issue 49): a path made, its fields saved (a bad value refused, nothing changed), steps added, changed, moved
 * and removed one form at a time, its analytics, and the path deleted; a learner reaches none of it.
 */
let server: InProcessServer;
const ORG = "acme.localhost";
const BASE = "/dashboard/organizations/1/paths";
let admin: string;
let learner: string;

const page = (path: string, as = admin) => request(server.port, ORG, path, { headers: { Cookie: as } });
const post = (path: string, fields: Record<string, string>, as = admin) => postForm(server, ORG, path, fields, as);
/** Posts a form whose fields repeat (a list box's choices). */
const postPairs = (path: string, pairs: [string, string][]) => {
  const body = new URLSearchParams(pairs).toString();
  return request(server.port, ORG, path, {
    method: "POST",
    body,
    headers: { Cookie: admin, Origin: `http://${ORG}`, "Content-Type": "application/x-www-form-urlencoded" },
  });
};
function read<T>(sql: string, ...params: unknown[]): T[] {
  const db = tenantDb(server, 1);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const steps = (pathId: number) =>
  read<{ position: number; kind: string; required: number; delay_days: number; courses: string }>(
    `select s.position, s.kind, s.required, s.delay_days, group_concat(c.course_id) as courses
     from path_steps s join path_step_courses c on c.step_id = s.id where s.path_id = ? group by s.id order by s.position`,
    pathId,
  );

beforeAll(async () => {
  server = await startInProcess();
  admin = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "admin@acme.test", kind: "web" }));
  learner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
});
afterAll(async () => {
  await server?.stop();
});

describe("the admins' learning path screens", () => {
  let pathId: number;

  it("make a path, and refuse a learner and an empty title", async () => {
    expect((await page(BASE)).status).toBe(200);
    expect((await page(BASE, learner)).status).toBe(403);
    expect((await post(BASE, { title: "Hacked" }, learner)).status).toBe(403);
    const empty = await post(BASE, { title: "  " });
    expect(empty.status).toBe(400);
    expect(empty.body).toContain("This field is required");
    const made = await post(BASE, { title: "Sales onboarding" });
    expect(made.status).toBe(302);
    pathId = Number(/\/paths\/(\d+)$/.exec(made.headers.location ?? "")?.[1]);
    expect(pathId).toBeGreaterThan(0);
    const list = await page(BASE);
    expect(list.body).toContain("Sales onboarding");
  });

  it("save a path's fields, and change nothing for a bad value", async () => {
    const at = `${BASE}/${pathId}`;
    const bad = await post(at, { intent: "save", title: "Sales onboarding", points: "-5" });
    expect(bad.status).toBe(400);
    const badge = await post(at, { intent: "save", title: "Sales onboarding", badge_id: "999999" });
    expect(badge.status).toBe(400);
    expect(read<{ points: number; badge_id: number | null }>("select points, badge_id from learning_paths where id = ?", pathId)).toEqual([
      { points: 0, badge_id: null },
    ]);
    const saved = await post(at, {
      intent: "save",
      title: "Sales onboarding",
      description: "<p>Your first month.</p><script>alert(1)</script>",
      published: "on",
      self_enrol: "on",
      allow_certificates: "on",
      points: "150",
      validity_months: "24",
    });
    expect(saved.status).toBe(302);
    expect(
      read(
        "select title, description, published, self_enrol, allow_certificates, points, validity_months from learning_paths where id = ?",
        pathId,
      ),
    ).toEqual([
      {
        title: "Sales onboarding",
        description: "<p>Your first month.</p>",
        published: 1,
        self_enrol: 1,
        allow_certificates: 1,
        points: 150,
        validity_months: 24,
      },
    ]);
  });

  it("add, change, move and remove steps one form at a time, refusing a step that asks for more than it holds", async () => {
    const at = `${BASE}/${pathId}`;
    const courses = read<{ id: number }>("select id from courses where published = 1 order by id limit 3").map((c) => c.id);
    expect((await post(at, { intent: "add-step", kind: "course", course_ids: String(courses[0]) })).status).toBe(303);
    const choice = await postPairs(at, [
      ["intent", "add-step"],
      ["kind", "choice"],
      ["title", "Electives"],
      ["course_ids", String(courses[1])],
      ["course_ids", String(courses[2])],
      ["required", "1"],
      ["delay_days", "3"],
    ]);
    expect(choice.status).toBe(303);
    expect(steps(pathId)).toEqual([
      { position: 0, kind: "course", required: 1, delay_days: 0, courses: String(courses[0]) },
      { position: 1, kind: "choice", required: 1, delay_days: 3, courses: `${courses[1]},${courses[2]}` },
    ]);
    // Two required of a choice of two is fine; three is refused, and the steps stay as they were.
    const tooMany = await postPairs(at, [
      ["intent", "update-step"],
      ["index", "1"],
      ["kind", "choice"],
      ["course_ids", String(courses[1])],
      ["course_ids", String(courses[2])],
      ["required", "3"],
    ]);
    expect(tooMany.status).toBe(400);
    expect(steps(pathId)[1].required).toBe(1);
    const both = await postPairs(at, [
      ["intent", "update-step"],
      ["index", "1"],
      ["kind", "choice"],
      ["title", "Electives"],
      ["course_ids", String(courses[1])],
      ["course_ids", String(courses[2])],
      ["required", "2"],
      ["delay_days", "0"],
    ]);
    expect(both.status).toBe(303);
    expect(steps(pathId)[1]).toMatchObject({ required: 2, delay_days: 0 });
    expect((await post(at, { intent: "move-step", index: "1", direction: "up" })).status).toBe(303);
    expect(steps(pathId).map((s) => s.kind)).toEqual(["choice", "course"]);
    expect((await post(at, { intent: "remove-step", index: "0" })).status).toBe(303);
    expect(steps(pathId)).toEqual([{ position: 0, kind: "course", required: 1, delay_days: 0, courses: String(courses[0]) }]);
    // A step that is not there, an intent that is not one.
    expect((await post(at, { intent: "remove-step", index: "7" })).status).toBe(404);
    expect((await post(at, { intent: "explode" })).status).toBe(400);
    const shown = await page(at);
    expect(shown.body).toContain("Step 1");
    expect((await page(`${at}/report`)).body).toContain('data-testid="path-analytics"');
  });

  it("delete the path, with its steps", async () => {
    expect((await page(`${BASE}/${pathId}/delete`)).status).toBe(200);
    expect((await post(`${BASE}/${pathId}/delete`, {})).status).toBe(302);
    expect(read("select id from learning_paths where id = ?", pathId)).toEqual([]);
    expect(read("select id from path_steps where path_id = ?", pathId)).toEqual([]);
    expect((await page(`${BASE}/${pathId}`)).status).toBe(404);
  });
});
