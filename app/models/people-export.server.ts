import { and, inArray, sql } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { groupMembers, groups, users } from "../../db/tenant";
import { csvCell } from "../utils/csv.server";

/**
 * People as CSV (issue 50; `GET /api/users/export`, which the people list's "Export" links to with its ticked rows
 * or its filters): each person's name, address, type, state, when added, language, groups and when last seen,
 * written a thousand people at a time as the client reads, so 100,000 people never sit in memory at once. The first
 * eight columns are those the export always had, in their order; the rest follow them.
 */
export const PEOPLE_EXPORT_HEADER = [
  "id",
  "first_name",
  "last_name",
  "phone",
  "email",
  "type",
  "status",
  "created_at",
  "language",
  "groups",
  "last_seen_at",
];

/** People a chunk reads: 1,000 people, their groups and last activity, one indexed read each. */
export const EXPORT_CHUNK = 1_000;

const line = (cells: unknown[]) => `${cells.map(csvCell).join(",")}\r\n`;

/** One chunk's lines, in the order of `ids`; groups only among `within` (a group admin's) when given. */
export function peopleExportLines(db: TenantConn, ids: readonly number[], within: readonly number[] | null): string {
  if (ids.length === 0) return "";
  const people = new Map(
    db
      .select()
      .from(users)
      .where(inArray(users.id, [...ids]))
      .all()
      .map((u) => [u.id, u] as const),
  );
  const groupNames = new Map<number, string[]>();
  for (const row of db
    .select({ userId: groupMembers.userId, name: groups.name })
    .from(groupMembers)
    .innerJoin(groups, sql`${groups.id} = ${groupMembers.groupId}`)
    .where(and(inArray(groupMembers.userId, [...ids]), within ? inArray(groups.id, within.length ? [...within] : [-1]) : undefined))
    .orderBy(groups.name, groups.id)
    .all())
    groupNames.set(row.userId, [...(groupNames.get(row.userId) ?? []), row.name]);
  const seen = new Map(
    db
      .all<{ user_id: number; last: number }>(
        // When each was last active (user_activity, kept as sessions are used; it outlives a session signed out of).
        sql`select user_id, last_active_at as last from user_activity where user_id in (select value from json_each(${JSON.stringify(ids)}))`,
      )
      .map((r) => [r.user_id, new Date(r.last * 1000).toISOString()] as const),
  );
  return ids
    .map((id) => people.get(id))
    .filter((u) => u !== undefined)
    .map((u) =>
      line([
        u.id,
        u.firstName,
        u.lastName,
        u.phone,
        u.email,
        u.role,
        u.disabledAt ? "disabled" : "active",
        u.createdAt.toISOString(),
        u.language,
        (groupNames.get(u.id) ?? []).join("; "),
        seen.get(u.id) ?? "",
      ]),
    )
    .join("");
}

/** Runs work on the organization's database, taken for the work's length only. */
export type ReadTenant = <T>(work: (db: TenantConn) => T) => T;

/**
 * The CSV of these people as a stream: the header (after a byte-order mark, for spreadsheet programs), then a chunk
 * each time the client reads. Each chunk takes the organization's database for its own length (`read`: the
 * request's lease may be over by then); someone deleted meanwhile is left out.
 */
export function peopleCsvStream(read: ReadTenant, ids: readonly number[], within: readonly number[] | null): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${line(PEOPLE_EXPORT_HEADER)}`));
    },
    pull(controller) {
      if (next >= ids.length) return controller.close();
      const chunk = ids.slice(next, next + EXPORT_CHUNK);
      next += EXPORT_CHUNK;
      controller.enqueue(encoder.encode(read((db) => peopleExportLines(db, chunk, within))));
    },
  });
}
