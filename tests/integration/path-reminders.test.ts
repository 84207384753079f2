import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewerOfMember } from "../../app/access/viewer";
import { createAssignment } from "../../app/models/assignment.server";
import { createCourse } from "../../app/models/course.server";
import { addMembers, membershipsOf } from "../../app/models/group-members.server";
import { createGroup } from "../../app/models/group.server";
import { createOrganization } from "../../app/models/organization.server";
import { editSteps } from "../../app/models/paths/admin.server";
import { assignPath } from "../../app/models/paths/assignments.server";
import { createPath } from "../../app/models/paths/paths.server";
import { runReminders } from "../../app/models/reminders.server";
import { createUser, getUser } from "../../app/models/user.server";
import { pathSchema } from "../../app/models/forms/paths";
import type { Organization } from "../../db/platform";
import { lessons } from "../../db/tenant";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { startMailbox, type Mailbox, type ReceivedMail } from "../helpers/mail";
import { tempDir } from "../helpers/temp";

/**
 * Reminders for learning path assignments (issue 49; app/models/reminders.server.ts): the same kinds on the same
 * days as a course's, in the same one mail a run per person, through a real SMTP receiver, with the run driven
 * on chosen clocks (`runReminders`, as the reminders job calls it). The organization's first course assignment and
 * first path assignment both have id 1: each is reminded of, once (a reminder's key names which it is). A path
 * the person may not see, or has finished, sends them nothing; the weekly digest lists the overdue people of a path
 * under the path (an unpublished one too: its people are overdue all the same), for the organization admin and for
 * the group admin of the group it was assigned to.
 */
const DUE = "2026-03-15"; // a Sunday; Copenhagen is UTC+1 in March
const RUN = {
  assigned: "2026-03-02T09:00:00Z",
  threeBefore: "2026-03-12T09:00:00Z",
  due: "2026-03-15T09:00:00Z",
  overdue1: "2026-03-16T09:00:00Z", // a Monday: overdue week 1, and the week's digest
};

let mailbox: Mailbox;
let platform: Platform;
let dataDir: string;
let organization: Organization;
const id: Record<string, number> = {};
let pathId = 0;

async function run(at: string) {
  const from = mailbox.mails.length;
  const result = await platform.tenants.withTenant(organization.id, (db) => runReminders(db, platform, organization, new Date(at)));
  expect(result.failed).toBe(0);
  // A send resolves once the receiver has taken the mail in (tests/helpers/mail.ts): every one is listed.
  const mails = mailbox.mails.slice(from);
  expect(mails).toHaveLength(result.mails + result.digests);
  return mails;
}
const to = (mails: ReceivedMail[], name: string) => mails.filter((m) => m.to.includes(`${name}@paths.test`));

beforeAll(async () => {
  mailbox = await startMailbox();
  dataDir = tempDir("lectern-path-reminders-");
  platform = new Platform({
    ...readConfig({} as NodeJS.ProcessEnv),
    DATA_DIR: dataDir,
    SMTP_URL: mailbox.url,
  });
  organization = createOrganization(platform.db, { dataDir }, { name: "Pathways", urlPrefix: "pathways", language: "en" });
  const t0 = new Date("2026-03-02T08:00:00Z");
  await platform.tenants.withTenant(organization.id, async (db) => {
    for (const [name, role] of [
      ["admin", "admin"],
      ["lead", "learner"],
      ["ann", "learner"],
      ["bo", "learner"],
      ["cy", "learner"],
    ] as const)
      id[name] = (
        await createUser(db, { email: `${name}@paths.test`, firstName: name, lastName: "Tester", role, password: "demo1234" })
      ).id;
    const course = createCourse(db, { title: "Fire safety", description: "", type: "series", published: true, position: 0 }).id;
    db.insert(lessons).values({ courseId: course, title: "Exits", kind: "text", position: 0 }).run();
    const made = createPath(db, pathSchema.parse({ title: "Onboarding", published: true }));
    if (!made.ok) throw new Error("path not made");
    pathId = made.value.id;
    expect(
      editSteps(db, pathId, { kind: "add", step: { kind: "course", title: "", course_ids: [course], required: 1, delay_days: 0 } })?.ok,
    ).toBe(true);
    // A path nobody may see: its assignment to Cy reminds her of nothing.
    const hidden = createPath(db, pathSchema.parse({ title: "Hidden path", published: false }));
    if (!hidden.ok) throw new Error("path not made");
    const team = createGroup(db, { name: "Team A" }).id;
    addMembers(db, team, [id.lead, id.ann, id.bo]);
    addMembers(db, team, [id.lead], { admin: true });
    const admin = getUser(db, id.admin)!;
    const assigner = viewerOfMember({ organization, db, language: "en" }, admin, membershipsOf(db, admin.id));
    const due = { kind: "date" as const, date: DUE };
    // Course assignment 1 (Ann) and path assignment 1 (Team A): the same id in two tables.
    expect(createAssignment(db, assigner, { courseId: course, target: { kind: "person", userId: id.ann }, due }, t0).ok).toBe(true);
    expect(assignPath(db, assigner, { pathId, target: { kind: "group", groupId: team }, due }, t0).ok).toBe(true);
    // Assigned while it was visible, then unpublished.
    db.$client.prepare("update learning_paths set published = 1 where id = ?").run(hidden.value.id);
    expect(assignPath(db, assigner, { pathId: hidden.value.id, target: { kind: "person", userId: id.cy }, due }, t0).ok).toBe(true);
    db.$client.prepare("update learning_paths set published = 0 where id = ?").run(hidden.value.id);
    // Bo has finished the path already: nothing for him.
    db.$client.prepare("update path_assignment_people set completed_at = unixepoch() where user_id = ?").run(id.bo);
  });
});

afterAll(async () => {
  platform?.close();
  await mailbox?.close();
});

describe("reminders for learning paths", () => {
  it("tells of a newly assigned path, in one mail with a course assigned too, each once", async () => {
    const mails = await run(RUN.assigned);
    expect(to(mails, "lead").map((m) => m.subject)).toEqual(["New learning path to complete: Onboarding"]);
    const lead = to(mails, "lead")[0];
    expect(lead.text).toContain("has assigned you a learning path to complete.");
    expect(lead.text).toContain("Learning path: Onboarding\nNewly assigned");
    expect(lead.text).toContain(`/paths/${pathId}`);
    expect(lead.html).toContain("Open the learning path");
    // Ann has course assignment 1 and path assignment 1: both, in one mail.
    const ann = to(mails, "ann");
    expect(ann.map((m) => m.subject)).toEqual(["2 assignments need your attention at Pathways"]);
    expect(ann[0].text).toContain("Here is where the courses and learning paths Pathways has assigned you stand.");
    expect(ann[0].text).toContain("Fire safety\nNewly assigned");
    expect(ann[0].text).toContain("Learning path: Onboarding\nNewly assigned");
    for (const name of ["bo", "cy", "admin"]) expect(to(mails, name)).toEqual([]);
    // The same clock again: everything is on record, nothing goes twice.
    expect(await run(RUN.assigned)).toEqual([]);
  });

  it("reminds before, on and after the due day, and the week's digest lists the path's overdue people", async () => {
    const before = await run(RUN.threeBefore);
    expect(to(before, "lead").map((m) => m.subject)).toEqual(["Due in 3 days: Onboarding"]);
    expect(to(before, "lead")[0].text).toContain("A learning path assigned to you is due soon.");
    expect(to(before, "ann").map((m) => m.subject)).toEqual(["2 assignments need your attention at Pathways"]);
    const due = await run(RUN.due);
    expect(to(due, "lead").map((m) => m.subject)).toEqual(["Due today: Onboarding"]);
    const overdue = await run(RUN.overdue1);
    expect(
      to(overdue, "lead")
        .filter((m) => !m.subject.includes("overdue at"))
        .map((m) => m.subject),
    ).toEqual(["Overdue: Onboarding"]);
    expect(to(overdue, "lead").find((m) => m.subject === "Overdue: Onboarding")!.text).toContain("Overdue by 1 day");
    for (const name of ["bo", "cy"]) expect(to([...before, ...due, ...overdue], name)).toEqual([]);

    const [digest] = to(overdue, "admin");
    // Cy too: the admin is told of an assignment that is overdue whether or not its path is shown to her now.
    expect(digest.subject).toBe("3 people overdue at Pathways");
    expect(digest.text).toMatch(/Learning path: Hidden path \([^)]*\/paths\/\d+\)\n- cy Tester/);
    expect(digest.text).toContain(`Learning path: Onboarding (http://pathways.`);
    expect(digest.text).toMatch(/Fire safety \(http:[^)]*\/courses\/\d+\)\n- ann Tester/);
    expect(digest.text).toMatch(/Learning path: Onboarding \([^)]*\/paths\/\d+\)\n- ann Tester \(ann@paths\.test\): due .*\n- lead Tester/);
    // The group admin's digest: Team A's path assignment, by group.
    const groupDigest = to(overdue, "lead").find((m) => m.subject.includes("overdue at"))!;
    expect(groupDigest.text).toContain("Team A");
    expect(groupDigest.text).toContain("Learning path: Onboarding, due");
    expect(groupDigest.text).not.toContain("Fire safety");
  });
});
