import { and, asc, eq, isNull } from "drizzle-orm";
import { viewerOfMember } from "../../app/access/viewer";
import { membershipsOf } from "../../app/models/group-members.server";
import { preparePeopleBulk, PEOPLE_BULK_JOB, runPeopleBulk } from "../../app/models/people-bulk/job.server";
import type { TenantDb } from "../../db/open";
import { groups, users } from "../../db/tenant";
import { finishedBulkJob } from "./bulk-job";

/**
 * A bulk action on people (issue 50; /dashboard/users/bulk/{job}): a day before `now`, the organization admin made
 * a group of every active learner for the winter all-hands ("Winter all-hands", by hand, with no courses of its own), from the people list's
 * "all that match" (type learner, active).
 * The job ran as the server runs it (app/models/people-bulk/job.server.ts), as of that moment, so the group's
 * members, the audit and the job's page agree, and a second seeding as of the same moment is the same.
 */
export async function seedPeopleBulkDemo(db: TenantDb, { language, now = new Date() }: { language: "en" | "da"; now?: Date }) {
  const admin = db.select().from(users).where(eq(users.role, "admin")).orderBy(asc(users.id)).get();
  if (!admin) return;
  const at = new Date(Math.floor((now.getTime() - 86_400_000) / 1000) * 1000);
  const group = db
    .insert(groups)
    .values({ name: language === "da" ? "Vintermøde" : "Winter all-hands", createdAt: at, updatedAt: at })
    .returning()
    .get();
  const viewer = { ...viewerOfMember({ organization: null, db, language }, admin, membershipsOf(db, admin.id)), address: "198.51.100.23" };
  const ids = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "learner"), isNull(users.disabledAt)))
    .orderBy(asc(users.id))
    .all()
    .map((r) => r.id);
  const prepared = preparePeopleBulk(db, viewer, { action: "add_to_group", params: { groupId: group.id }, ids }, "page");
  if (!prepared.ok) return;
  await finishedBulkJob(db, PEOPLE_BULK_JOB, prepared.payload, at, () =>
    runPeopleBulk(db, prepared.payload, { progress: () => {}, pause: async () => {}, now: at }),
  );
}
