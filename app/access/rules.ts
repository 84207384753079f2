import type { UserRole } from "../../db/vocabulary";
import { mayGrant, type Capability, type Role } from "../utils/capabilities";
import type { Viewer } from "./viewer";

/**
 * What each role and capability may do (docs/product.md §6; the roles' capabilities are listed in
 * app/utils/capabilities.ts, which the browser shares to hide what a person may not use). Every check of a
 * viewer's rights is one of these functions; docs/permissions.md is the table they must produce.
 */

/** Signed in here: a person with a role in this organization (or the platform), their code confirmed. */
export function isSignedIn(viewer: Viewer): boolean {
  return Boolean(viewer.person && viewer.role && !viewer.session?.twoFactorPending);
}

/** Whether the viewer holds a capability (a role's, or an API token's share of its owner's). */
export function may(viewer: Viewer, capability: Capability): boolean {
  return viewer.capabilities.has(capability);
}

/** May act with that capability now: a role here, and no e-mailed code still awaited (a person or an API token). */
export function mayAct(viewer: Viewer, capability: Capability): boolean {
  return Boolean(viewer.role) && !viewer.session?.twoFactorPending && may(viewer, capability);
}

/** Those who may write courses see every course and lesson, drafts included, whatever the learner rules say. */
export function mayPreview(viewer: Viewer): boolean {
  return mayAct(viewer, "write:course");
}

/** The organization's admins (and super-admins managing it), as opposed to group admins and learners. */
export function isOrganizationAdmin(viewer: Viewer): boolean {
  return viewer.role === "admin" || viewer.role === "super_admin";
}

/** The groups a viewer may manage: null means all of them; a group admin only those they administer. */
export function manageableGroupIds(viewer: Viewer): readonly number[] | null {
  return isOrganizationAdmin(viewer) ? null : viewer.administeredGroupIds;
}

/** A person as the rules about adding people to groups need them: their stored role and the groups they are in. */
export interface GroupCandidate {
  role: UserRole | null;
  groupIds: readonly number[];
}

/**
 * Whether a viewer who manages a group may add a person to it (issue 44; docs/decisions/017-groups-and-import.md
 * "Who a group admin may add"): no action of a group admin ever widens whom they manage. An organization
 * admin adds anyone ("allowed"; nobody by that id or address: "unknown"). A group admin adds only someone
 * already in a group they administer, never an organization admin; anyone else, and nobody at all, is
 * "not_managed" alike, so the answer tells a group admin nothing about who has an account here.
 */
export function mayAddToGroup(viewer: Viewer, person: GroupCandidate | undefined): "allowed" | "unknown" | "not_managed" {
  if (!mayAct(viewer, "write:group")) return "not_managed";
  const reach = manageableGroupIds(viewer);
  if (reach === null) return person ? "allowed" : "unknown";
  if (!person || person.role === "admin") return "not_managed";
  return person.groupIds.some((id) => reach.includes(id)) ? "allowed" : "not_managed";
}

/** Who makes and unmakes a group's admins: the organization's admins only. */
export function mayChangeGroupAdmins(viewer: Viewer): boolean {
  return mayAct(viewer, "write:group") && isOrganizationAdmin(viewer);
}

/** Whether a viewer who manages a group may take a member out of it: a group admin never removes one of its admins. */
export function mayRemoveFromGroup(viewer: Viewer, membership: { isAdmin: boolean }): boolean {
  return mayAct(viewer, "write:group") && (isOrganizationAdmin(viewer) || !membership.isAdmin);
}

/** The audit of what admins did (issue 44): the organization's admins read it, nobody else. */
export function mayReadAdminAudit(viewer: Viewer): boolean {
  return mayAct(viewer, "read:organization") && isOrganizationAdmin(viewer);
}

/**
 * Who may assign a course (issue 34; app/models/assignment.server.ts), and take an assignment back: the
 * organization's admins to anyone; a group admin only to a group they administer (never to one person,
 * nor to an assignment whose group was deleted). Both need `write:group`, so an API token without it
 * assigns nothing.
 */
export function mayAssign(viewer: Viewer, target: { kind: "person" } | { kind: "group"; groupId: number | null }): boolean {
  if (!mayAct(viewer, "write:group")) return false;
  const groups = manageableGroupIds(viewer);
  if (groups === null) return true;
  return target.kind === "group" && target.groupId !== null && groups.includes(target.groupId);
}

/**
 * Who may read the compliance report (issue 34; app/models/compliance.server.ts): whoever may read analytics,
 * over the people they may see — the organization's admins everyone (null), a group admin the current
 * members of the groups they administer. Null-or-list like `manageableGroupIds`; false when refused. A
 * learner, and an API token without `read:analytics`, is refused. The dashboard's page is the organization
 * admins' (`mayOpenDashboard`); group admins reach the /api calls and the CSV download.
 */
export function complianceReach(viewer: Viewer): readonly number[] | null | false {
  if (!mayAct(viewer, "read:analytics")) return false;
  return manageableGroupIds(viewer);
}

/**
 * Who opens the dashboard's pages (/dashboard and every screen under it; docs/product.md §2): the
 * organization's admins, who hold `read:organization`. A group admin's `read:analytics` and `read:user`
 * reach their groups through /api and the CSV downloads, never the dashboard's pages. Every dashboard
 * loader and action asks this itself (app/kernel/auth.server.ts `requireDashboard`), not only the layout:
 * a data request (`?_data=<route id>`) runs one route's loader without its layout's (issue 44).
 */
export function mayOpenDashboard(viewer: Viewer): boolean {
  return mayAct(viewer, "read:organization");
}

export function isSuperAdmin(viewer: Viewer): boolean {
  return viewer.role === "super_admin" && !viewer.organization;
}

/** The bulk actions on people (issue 50; app/models/people-bulk/). */
export type PeopleBulkAction =
  | "add_to_group"
  | "remove_from_group"
  | "assign_course"
  | "assign_path"
  | "deactivate"
  | "reactivate"
  | "change_role"
  | "resend_invitation";

/**
 * Who may start a bulk action on people (issue 50; docs/decisions/046-management-lists.md): adding to or taking
 * out of a group, whoever may manage that group (each person is then asked about as `mayAddToGroup` and
 * `mayRemoveFromGroup` say, so a group admin never reaches past their groups); assigning a course to people one
 * by one, or a learning path (issue 49: a path is assigned to a person as a course is), whoever may assign to a
 * person (`mayAssign`: the organization's admins; a group admin assigns to their groups only, never to people one
 * by one); deactivating, reactivating, changing a role and mailing the invitation again, the organization's admins
 * with `write:user` (who add people and so invite them), a role never above what they may grant (`mayGrant`).
 */
export function mayStartPeopleBulk(
  viewer: Viewer,
  action: PeopleBulkAction,
  { groupId, role }: { groupId?: number; role?: Role | null } = {},
): boolean {
  switch (action) {
    case "add_to_group":
    case "remove_from_group": {
      const reach = manageableGroupIds(viewer);
      return mayAct(viewer, "write:group") && groupId !== undefined && (reach === null || reach.includes(groupId));
    }
    case "assign_course":
    case "assign_path":
      return mayAssign(viewer, { kind: "person" });
    case "deactivate":
    case "reactivate":
    case "resend_invitation":
      return mayAct(viewer, "write:user") && isOrganizationAdmin(viewer);
    case "change_role":
      return mayAct(viewer, "write:user") && isOrganizationAdmin(viewer) && role !== undefined && mayGrant(viewer, role);
  }
}

/**
 * Whom a viewer may export (issue 50; the people list's "Export" and `GET /api/users/export`): whoever reads people
 * (`read:user`) — the organization's admins everyone (null), a group admin the members of the groups they administer
 * (whose group names are all the export shows them); false when refused.
 */
export function peopleExportReach(viewer: Viewer): readonly number[] | null | false {
  if (!mayAct(viewer, "read:user")) return false;
  return manageableGroupIds(viewer);
}

/** Whether a bulk action that changes a person's account (not their groups) may touch this one: never the viewer's own. */
export function mayChangeAccountOf(viewer: Viewer, personId: number): boolean {
  return viewer.role === "super_admin" || viewer.person?.id !== personId;
}

/** Who reads a bulk action's job (issue 50): the organization's admins every one; anyone else the ones they started. */
export function mayReadPeopleBulk(viewer: Viewer, startedBy: number | null): boolean {
  if (!viewer.role || viewer.session?.twoFactorPending) return false;
  return isOrganizationAdmin(viewer) || (startedBy !== null && viewer.person?.id === startedBy);
}

/** Whether a viewer may start some bulk action on people: a group's manager (`write:group`) or an organization admin with `write:user`. */
export function mayStartAnyPeopleBulk(viewer: Viewer): boolean {
  return mayAct(viewer, "write:group") || (mayAct(viewer, "write:user") && isOrganizationAdmin(viewer));
}

/**
 * Who sees a person whole (issue 50; the person's page and `GET /api/users/{id}/overview`): whoever reads people
 * (`read:user`) — the organization's admins anyone, a group admin only someone in a group they administer.
 */
export function maySeePerson(viewer: Viewer, personGroupIds: readonly number[]): boolean {
  if (!mayAct(viewer, "read:user")) return false;
  const reach = manageableGroupIds(viewer);
  return reach === null || personGroupIds.some((id) => reach.includes(id));
}

/** The bulk actions on courses (issue 50; app/models/course-bulk/). */
export type CourseBulkAction = "publish" | "unpublish" | "move" | "delete";

/**
 * Who may change and delete courses: whoever holds `write:course` (the organization's admins, and super-admins
 * managing it; an API token given it). The course screens open to them alone (app/kernel/manage.server.ts), and
 * the same holds for every course a bulk action reaches.
 */
export function mayChangeCourses(viewer: Viewer): boolean {
  return mayAct(viewer, "write:course");
}

/**
 * Who may start a bulk action on courses (issue 50; docs/decisions/046-management-lists.md), and read its job:
 * publishing, unpublishing, moving to a category and deleting are what a single course's screens let
 * `mayChangeCourses` do, so the same viewers may do them to many.
 */
export function mayStartCourseBulk(viewer: Viewer, _action?: CourseBulkAction): boolean {
  return mayChangeCourses(viewer);
}
