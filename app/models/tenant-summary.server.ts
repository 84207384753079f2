import { and, asc, eq, isNull, or, sum } from "drizzle-orm";
import type { PlatformConn, PlatformDb, TenantDb } from "../../db/open";
import { organizations, organizationSummaries, platformPeople } from "../../db/platform";
import { preparedOnce } from "../../db/prepared";
import { contains } from "../utils/pagination";

/**
 * What the platform database keeps of each organization's people and courses (db/platform.ts
 * `organizationSummaries`, `platformPeople`), so that the super-admin's overview and user list read one
 * database instead of opening every organization's on each request (issue 31).
 *
 * The tenant database is the truth. Its triggers note every person added, removed or changed in what the
 * list shows, and every course added or removed, in `summary_changes` (tenant migration 0020), in the
 * same transaction as the change, whoever makes it (a page, /api, a job, a script, another process). The
 * notes are carried over as the use of the database ends (server/tenant-summaries.ts); what is not
 * carried yet (the process stopped first, a lock was held) stays noted and is carried by the next use.
 */

/** Whether the tenant database holds notes not carried over yet: one look, made as every use ends. */
export function hasSummaryChanges(tenant: TenantDb) {
  return tenantStatements(tenant).more.get() === 1;
}

/** Whether the platform holds this organization's summary (none yet: it is gathered in full). */
export function hasSummary(platform: PlatformConn, organizationId: number) {
  return (
    platform
      .select({ id: organizationSummaries.organizationId })
      .from(organizationSummaries)
      .where(eq(organizationSummaries.organizationId, organizationId))
      .get() !== undefined
  );
}

/**
 * Notes carried per turn. A carry runs on the server's thread as a use ends; an import of 50,000 people
 * leaves 50,000 notes, about 7 µs each to carry, so they are carried a batch at a time with the event
 * loop free between batches (server/tenant-summaries.ts).
 */
export const NOTES_PER_CARRY = 2_000;

/** A person as the platform keeps them (`disabled`: 1 or 0). */
const PERSON = "id as userId, email, first_name as firstName, last_name as lastName, role, disabled_at is not null as disabled";

/** The statements of a carry, prepared once per connection (built by drizzle, they cost more than they run). */
function tenantStatements(tenant: TenantDb) {
  const sqlite = tenant.$client;
  return preparedOnce(tenant, "summary.carry", () => ({
    // `? + 0`: a LIMIT SQLite plans once (db/planned-limit.ts).
    notes: sqlite.prepare("select id, user_id as userId from summary_changes order by id limit ? + 0"),
    clearUpTo: sqlite.prepare("delete from summary_changes where id <= ?"),
    clear: sqlite.prepare("delete from summary_changes"),
    more: sqlite.prepare("select exists (select 1 from summary_changes)").pluck(),
    person: sqlite.prepare(`select ${PERSON} from users where id = ?`),
    everyone: sqlite.prepare(`select ${PERSON} from users`),
    users: sqlite.prepare("select count(*) from users").pluck(),
    courses: sqlite.prepare("select count(*) from courses").pluck(),
  }));
}

function platformStatements(platform: PlatformDb) {
  const sqlite = platform.$client;
  return preparedOnce(platform, "summary.carry", () => ({
    registered: sqlite.prepare("select 1 from organizations where id = ?").pluck(),
    forgetEveryone: sqlite.prepare("delete from platform_people where organization_id = ?"),
    forget: sqlite.prepare("delete from platform_people where organization_id = ? and user_id = ?"),
    keep: sqlite.prepare(
      "insert into platform_people (organization_id, user_id, email, first_name, last_name, role, disabled) values (@organizationId, @userId, @email, @firstName, @lastName, @role, @disabled)",
    ),
    counts: sqlite.prepare(
      "insert into organization_summaries (organization_id, users, courses, updated_at) values (?, ?, ?, unixepoch()) " +
        "on conflict (organization_id) do update set users = excluded.users, courses = excluded.courses, updated_at = excluded.updated_at",
    ),
  }));
}

interface KeptPerson {
  userId: number;
  email: string;
  firstName: string;
  lastName: string;
  role: string | null;
  disabled: number;
}

/**
 * Carries the organization's notes over to the platform, the oldest `NOTES_PER_CARRY` of them: the
 * current entry of every noted person (or its removal) and both counts. `full` writes the organization's
 * whole directory again instead and clears every note (its first gathering, a restore, `npm run
 * db:migrate`). The tenant's write lock is held throughout, so two processes carrying the same notes
 * cannot leave an older entry last; notes are removed only with what they said written, and a note
 * carried twice writes the same entry twice.
 * `kept` is false when the organization is no longer registered (deleted meanwhile: nothing is kept for
 * it); `more` says notes are left for another carry. A lock held by another process fails with
 * SQLITE_BUSY before anything is written.
 */
export function carrySummary(platform: PlatformDb, organizationId: number, tenant: TenantDb, { full }: { full: boolean }) {
  const t = tenantStatements(tenant);
  const p = platformStatements(platform);
  return tenant.$client
    .transaction(() => {
      const notes = full ? null : (t.notes.all(NOTES_PER_CARRY) as Array<{ id: number; userId: number | null }>);
      const noted = notes === null ? null : [...new Set(notes.flatMap((note) => (note.userId === null ? [] : [note.userId])))];
      const people = (noted === null ? t.everyone.all() : noted.flatMap((id) => t.person.all(id))) as KeptPerson[];
      const users = t.users.get() as number;
      const courses = t.courses.get() as number;
      const kept = platform.$client
        .transaction(() => {
          if (p.registered.get(organizationId) === undefined) return false;
          if (noted === null) p.forgetEveryone.run(organizationId);
          else for (const id of noted) p.forget.run(organizationId, id);
          for (const person of people) p.keep.run({ organizationId, ...person });
          p.counts.run(organizationId, users, courses);
          return true;
        })
        .immediate();
      if (notes === null) t.clear.run();
      else if (notes.length > 0) t.clearUpTo.run(notes[notes.length - 1].id);
      return { kept, more: t.more.get() === 1 };
    })
    .immediate();
}

/** Organizations whose summary has not been gathered yet (new since the last start, restored, upgraded). */
export function organizationsWithoutSummary(platform: PlatformConn) {
  return platform
    .select({ id: organizations.id })
    .from(organizations)
    .leftJoin(organizationSummaries, eq(organizationSummaries.organizationId, organizations.id))
    .where(isNull(organizationSummaries.organizationId))
    .orderBy(asc(organizations.id))
    .all()
    .map((row) => row.id);
}

/** The platform's totals for the super-admin's overview, and how many organizations they leave out. */
export function platformTotals(platform: PlatformConn) {
  const totals = platform
    .select({ users: sum(organizationSummaries.users), courses: sum(organizationSummaries.courses) })
    .from(organizationSummaries)
    .get();
  return {
    users: Number(totals?.users ?? 0),
    courses: Number(totals?.courses ?? 0),
    notGathered: organizationsWithoutSummary(platform).length,
  };
}

/**
 * People across organizations for /admin/users: by organization, then name (each organization's own
 * list's order), at most `limit`; `q` is looked for in the e-mail and both names, as on that list.
 */
export function listPlatformPeople(
  platform: PlatformConn,
  { q, organizationId, limit }: { q?: string; organizationId?: number; limit: number },
) {
  const search = q
    ? or(contains(platformPeople.email, q), contains(platformPeople.firstName, q), contains(platformPeople.lastName, q))
    : undefined;
  return platform
    .select({
      organizationId: platformPeople.organizationId,
      organization: organizations.name,
      userId: platformPeople.userId,
      email: platformPeople.email,
      firstName: platformPeople.firstName,
      lastName: platformPeople.lastName,
      role: platformPeople.role,
      disabled: platformPeople.disabled,
    })
    .from(platformPeople)
    .innerJoin(organizations, eq(organizations.id, platformPeople.organizationId))
    .where(and(organizationId === undefined ? undefined : eq(platformPeople.organizationId, organizationId), search))
    .orderBy(asc(platformPeople.organizationId), asc(platformPeople.lastName), asc(platformPeople.firstName), asc(platformPeople.userId))
    .limit(limit)
    .all();
}

/** Drops what the platform keeps of an organization: it is gathered again in full by its next use. */
export function forgetSummary(platform: PlatformDb, organizationId: number) {
  platform.transaction((tx) => {
    tx.delete(platformPeople).where(eq(platformPeople.organizationId, organizationId)).run();
    tx.delete(organizationSummaries).where(eq(organizationSummaries.organizationId, organizationId)).run();
  });
}
