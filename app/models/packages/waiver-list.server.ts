import { and, desc, eq, isNull, or, sql, type SQLWrapper } from "drizzle-orm";
import type { TenantConn } from "../../../db/open";
import { packageRegistrations, users, type ContentPackage } from "../../../db/tenant";
import { aus, type Cmi5Course, inLanguage } from "./cmi5-structure";
import { auStates } from "./satisfaction.server";

/*
 * The learners of a cmi5 lesson as its admin sees them to waive a unit (cmi5 §9.3.7; docs/decisions/044): each
 * open registration, newest first, with the units not yet met (those a waiver can still count), found by name
 * or e-mail. A page of them: a lesson may have thousands of learners.
 */

export const WAIVER_PAGE = 25;

export interface WaiverRow {
  registration: string;
  name: string;
  email: string;
  open: Array<{ id: string; title: string }>;
  waived: Array<{ title: string; reason: string }>;
}

export function waiverRows(db: TenantConn, pkg: ContentPackage, { search, language }: { search: string; language: string }): WaiverRow[] {
  if (pkg.kind !== "cmi5") return [];
  const units = aus((pkg.structure as Cmi5Course).children);
  const term = search.trim().slice(0, 100);
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (column: SQLWrapper) => sql`${column} like ${pattern} escape '\\'`;
  const rows = db
    .select({ id: packageRegistrations.id, registration: packageRegistrations.registration, user: users })
    .from(packageRegistrations)
    .innerJoin(users, eq(users.id, packageRegistrations.userId))
    .where(
      and(
        eq(packageRegistrations.lessonId, pkg.lessonId),
        isNull(packageRegistrations.closedAt),
        term ? or(like(users.email), like(users.firstName), like(users.lastName)) : undefined,
      ),
    )
    .orderBy(desc(packageRegistrations.id))
    .limit(WAIVER_PAGE)
    .all();
  return rows.map((r) => {
    const states = auStates(db, r.id);
    return {
      registration: r.registration,
      name: `${r.user.firstName} ${r.user.lastName}`.trim(),
      email: r.user.email,
      open: units.filter((u) => !states.get(u.id)?.satisfiedAt).map((u) => ({ id: u.id, title: inLanguage(u.title, language) })),
      waived: units.flatMap((u) => {
        const reason = states.get(u.id)?.waivedReason;
        return reason ? [{ title: inLanguage(u.title, language), reason }] : [];
      }),
    };
  });
}
