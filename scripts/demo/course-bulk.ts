import { asc, desc, eq } from "drizzle-orm";
import type { CourseBulkAction } from "../../app/access/rules";
import { viewerOfMember } from "../../app/access/viewer";
import { COURSE_BULK_JOB, prepareCourseBulk, runCourseBulk } from "../../app/models/course-bulk/job.server";
import { courseListIds } from "../../app/models/course-list.server";
import { membershipsOf } from "../../app/models/group-members.server";
import type { TenantDb } from "../../db/open";
import { categories, courses, users } from "../../db/tenant";
import { finishedBulkJob } from "./bulk-job";

/**
 * Bulk actions on courses (issue 50; /dashboard/organizations/{id}/courses/bulk/{job}): two days before `now` the
 * organization admin unpublished every course of the last category from the courses list's "all that match" (its
 * draft left as it was), and a day later published the ones that had been published again, ticked. Two finished
 * jobs, and the audit's "Course: …" entries, with the catalogue as it was before them.
 */
export async function seedCourseBulkDemo(db: TenantDb, { now = new Date() }: { now?: Date } = {}) {
  const admin = db.select().from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).get();
  const category = db.select().from(categories).orderBy(desc(categories.position), desc(categories.id)).get();
  if (!admin || !category) return;
  const viewer = viewerOfMember({ organization: null, db, language: "en" }, admin, membershipsOf(db, admin.id));
  const ids = courseListIds(db, viewer, { q: "", filters: { category: String(category.id) } });
  const wasPublished = ids.filter((id) => db.select({ p: courses.published }).from(courses).where(eq(courses.id, id)).get()?.p);
  const day = (n: number) => new Date(Math.floor((now.getTime() - n * 86_400_000) / 1000) * 1000);
  const run = async (action: CourseBulkAction, of: number[], at: Date) => {
    const prepared = prepareCourseBulk(db, viewer, { action, params: {}, ids: of }, "page");
    if (!prepared.ok) return;
    await finishedBulkJob(db, COURSE_BULK_JOB, prepared.payload, at, () =>
      runCourseBulk(db, prepared.payload, { progress: () => {}, pause: async () => {}, now: at }),
    );
  };
  await run("unpublish", ids, day(2));
  await run("publish", wasPublished, day(1));
}
