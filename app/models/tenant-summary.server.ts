import { and, asc, eq, inArray, isNotNull, isNull, or, sum } from "drizzle-orm";
import type { PlatformConn, PlatformDb, TenantConn, TenantDb } from "../../db/open";
import { organizations, organizationSummaries, platformPeople } from "../../db/platform";
import { preparedOnce } from "../../db/prepared";
import { summaryChanges, users } from "../../db/tenant";
import { contains } from "../utils/pagination";
import { countCourses } from "./course.server";
import { countUsers } from "./user.server";

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

/** Rows written to the platform per statement (7 values each, well under SQLite's variable limit). */
const CHUNK = 500;

/** Whether the tenant database holds notes not carried over yet: one look, made as every use ends. */
export function hasSummaryChanges(tenant: TenantDb) {
  const query = preparedOnce(tenant, "summary.pending", () =>
    tenant.$client.prepare("select exists (select 1 from summary_changes)").pluck(),
  );
  return query.get() === 1;
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
 * Carries the organization's notes over to the platform: the current entry of every noted person (or
 * its removal) and both counts; `full` replaces the organization's whole directory instead (its first
 * gathering, a restore, `npm run db:migrate`). The tenant's write lock is held throughout, so two
 * processes carrying the same notes cannot leave an older entry last; the notes are removed only with
 * what they said written, and carrying a note twice writes the same entry twice. False when the
 * organization is no longer registered (deleted meanwhile): nothing is kept for it.
 * A lock held by another process fails with SQLITE_BUSY, before anything is written.
 */
export function carrySummary(platform: PlatformDb, organizationId: number, tenant: TenantDb, { full }: { full: boolean }) {
  return tenant.$client
    .transaction(() => {
      const noted = full ? null : notedUserIds(tenant);
      const people = noted === null ? peopleOf(tenant) : peopleOf(tenant, noted);
      const counts = { users: countUsers(tenant), courses: countCourses(tenant) };
      const kept = platform.transaction((tx) => {
        const registered = tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).get();
        if (!registered) return false;
        if (noted === null) {
          tx.delete(platformPeople).where(eq(platformPeople.organizationId, organizationId)).run();
        } else {
          for (const ids of chunks(noted)) {
            tx.delete(platformPeople).where(and(eq(platformPeople.organizationId, organizationId), inArray(platformPeople.userId, ids))).run();
          }
        }
        for (const rows of chunks(people)) {
          tx.insert(platformPeople)
            .values(rows.map((person) => ({ organizationId, ...person })))
            .run();
        }
        tx.insert(organizationSummaries)
          .values({ organizationId, ...counts, updatedAt: new Date() })
          .onConflictDoUpdate({ target: organizationSummaries.organizationId, set: { ...counts, updatedAt: new Date() } })
          .run();
        return true;
      });
      tenant.delete(summaryChanges).run();
      return kept;
    })
    .immediate();
}

/** The people the notes name (a person noted several times, once). */
function notedUserIds(tenant: TenantConn) {
  return tenant
    .selectDistinct({ userId: summaryChanges.userId })
    .from(summaryChanges)
    .where(isNotNull(summaryChanges.userId))
    .all()
    .map((row) => row.userId!);
}

/** People as the platform keeps them: all of them, or those of `ids` that still exist. */
function peopleOf(tenant: TenantConn, ids?: number[]) {
  const select = () =>
    tenant
      .select({ userId: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, role: users.role, disabledAt: users.disabledAt })
      .from(users);
  const rows = ids === undefined ? select().all() : chunks(ids).flatMap((part) => select().where(inArray(users.id, part)).all());
  return rows.map(({ disabledAt, ...person }) => ({ ...person, disabled: disabledAt !== null }));
}

function chunks<T>(items: T[]): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) parts.push(items.slice(i, i + CHUNK));
  return parts;
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
export function listPlatformPeople(platform: PlatformConn, { q, organizationId, limit }: { q?: string; organizationId?: number; limit: number }) {
  const search = q ? or(contains(platformPeople.email, q), contains(platformPeople.firstName, q), contains(platformPeople.lastName, q)) : undefined;
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
