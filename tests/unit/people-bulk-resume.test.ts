import { describe, expect, it } from "vitest";
import { viewerOfMember } from "~/access/viewer";
import { enqueueJob, getJob, JobInterrupted } from "~/models/job.server";
import { PEOPLE_BULK_JOB, peopleBulkJob, preparePeopleBulk, SLICE } from "~/models/people-bulk/job.server";
import { tenantDatabasePerTest } from "../helpers/tenant-database";

/**
 * A bulk action on people stopped by the server stopping (issue 50; app/models/people-bulk/job.server.ts) keeps its
 * place after each slice, in the slice's own transaction, and goes on from there: on a real tenant database, 600
 * people added to a group, stopped after the first slice of 250, then run again to the end, each person once.
 */
const tenant = tenantDatabasePerTest("lectern-bulk-resume-");
const PEOPLE = 600;

function fill() {
  const db = tenant.db.$client;
  db.prepare("insert into users (email, first_name, last_name, role) values ('boss@example.test', 'Boss', 'Admin', 'admin')").run();
  const insert = db.prepare("insert into users (email, first_name, last_name, role) values (?, 'Many', ?, 'learner')");
  for (let i = 1; i <= PEOPLE; i++) insert.run(`many${i}@example.test`, `Person${i}`);
  const group = Number(db.prepare("insert into groups (name) values ('Everyone')").run().lastInsertRowid);
  const ids = (db.prepare("select id from users where email like 'many%' order by id").all() as { id: number }[]).map((r) => r.id);
  return { group, ids };
}

const members = (group: number) =>
  (tenant.db.$client.prepare("select count(*) as n from group_members where group_id = ?").get(group) as { n: number }).n;

describe("a bulk action stopped with the server", () => {
  it("keeps its place after each slice and goes on from it, each person once", async () => {
    const { group, ids } = fill();
    const person = tenant.db.$client.prepare("select id from users where email = 'boss@example.test'").get() as { id: number };
    const admin = viewerOfMember(
      { organization: null, db: tenant.db, language: "en" },
      {
        id: person.id,
        email: "boss@example.test",
        role: "admin",
        disabledAt: null,
      } as Parameters<typeof viewerOfMember>[1],
      [],
    );
    const prepared = preparePeopleBulk(tenant.db, admin, { action: "add_to_group", params: { groupId: group }, ids }, "page");
    if (!prepared.ok) throw new Error(prepared.message);
    const job = enqueueJob(tenant.db, PEOPLE_BULK_JOB, prepared.payload);
    const context = (stopAfter: number) => {
      let asked = 0;
      return {
        db: tenant.db,
        dataDir: tenant.dataDir,
        organizationId: 1,
        job: getJob(tenant.db, job.id)!,
        progress: () => {},
        pause: async () => {},
        stopping: () => asked++ >= stopAfter,
      };
    };

    await expect(peopleBulkJob(context(1))).rejects.toBeInstanceOf(JobInterrupted);
    expect(members(group)).toBe(SLICE);
    expect(getJob(tenant.db, job.id)!.result).toMatchObject({ next: SLICE, done: SLICE, unchanged: 0 });

    const result = await peopleBulkJob(context(Number.POSITIVE_INFINITY));
    expect(result).toMatchObject({ total: PEOPLE, done: PEOPLE, unchanged: 0, refused: {} });
    expect(members(group)).toBe(PEOPLE);
    const audited = tenant.db.$client
      .prepare("select count(*) as n, count(distinct subject_id) as people from admin_audit where action = 'member_added' and group_id = ?")
      .get(group) as { n: number; people: number };
    expect(audited).toEqual({ n: PEOPLE, people: PEOPLE });
  });
});
