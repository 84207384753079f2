import { describe, expect, it } from "vitest";
import { createCourse } from "../../app/models/course.server";
import { pathSchema, pathStepsSchema } from "../../app/models/forms/paths";
import { createPath, deletePath, getPath, setPathSteps, updatePath } from "../../app/models/paths/paths.server";
import { stepRules } from "../../app/models/paths/enrolments.server";
import { pathStepCourses } from "../../db/tenant";
import { tenantDatabasePerTest } from "../helpers/tenant-database";

/** Learning paths as admins make them (issue 49): fields checked, steps replaced whole, foreign courses refused. */
const tenant = tenantDatabasePerTest("lectern-paths-model-");
const course = (title: string) => createCourse(tenant.db, { title, description: "", type: "series", published: true, position: 0 }).id;

describe("learning paths as admins make them", () => {
  it("are made and changed with their fields checked, the description sanitised, a category that exists", () => {
    const made = createPath(tenant.db, pathSchema.parse({ title: "Onboarding", description: "<p>Hi</p><script>x()</script>" }));
    if (!made.ok) throw new Error(made.message);
    expect(made.value).toMatchObject({ title: "Onboarding", published: false, selfEnrol: true, description: "<p>Hi</p>" });
    expect(updatePath(tenant.db, made.value.id, pathSchema.parse({ title: "Onboarding", category_id: 999 }))).toMatchObject({
      ok: false,
      field: "category_id",
    });
    expect(updatePath(tenant.db, 12345, pathSchema.parse({ title: "x" }))).toBeNull();
    expect(pathSchema.safeParse({ title: " " }).success).toBe(false);
    expect(deletePath(tenant.db, made.value.id)).toBe(true);
    expect(getPath(tenant.db, made.value.id)).toBeUndefined();
  });

  it("take their steps whole, in order; refuse a foreign course and keep the steps they had", () => {
    const path = createPath(tenant.db, pathSchema.parse({ title: "Safety" }));
    if (!path.ok) throw new Error(path.message);
    const [a, b, c, d] = ["Basics", "Fire", "First aid", "Exam"].map(course);
    const steps = pathStepsSchema.parse({
      steps: [
        { course_ids: [a] },
        { kind: "choice", title: "One elective", course_ids: [b, c], required: 1 },
        { course_ids: [d], delay_days: 7 },
      ],
    });
    const set = setPathSteps(tenant.db, path.value.id, steps);
    expect(set && set.ok && set.value.map((s) => s.courseIds)).toEqual([[a], [b, c], [d]]);
    const refused = setPathSteps(tenant.db, path.value.id, pathStepsSchema.parse({ steps: [{ course_ids: [a] }, { course_ids: [999] }] }));
    expect(refused).toMatchObject({ ok: false, field: "steps.1.course_ids" });
    expect(stepRules(tenant.db, path.value.id).map((s) => s.delayDays)).toEqual([0, 0, 7]);
    expect(tenant.db.select().from(pathStepCourses).all()).toHaveLength(4);
  });

  it("check a step's shape: one course for a course step, no more required than it holds, no course twice", () => {
    const bad = [
      { kind: "course", course_ids: [1, 2] },
      { kind: "choice", course_ids: [1, 2], required: 3 },
      { kind: "choice", course_ids: [1, 1] },
      { course_ids: [] },
    ];
    for (const step of bad) expect(pathStepsSchema.safeParse({ steps: [step] }).success, JSON.stringify(step)).toBe(false);
  });
});
