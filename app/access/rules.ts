import type { Capability } from "../utils/capabilities";
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
 * admins' (its layout asks `read:organization`); group admins reach the /api calls and the CSV download.
 */
export function complianceReach(viewer: Viewer): readonly number[] | null | false {
  if (!mayAct(viewer, "read:analytics")) return false;
  return manageableGroupIds(viewer);
}

export function isSuperAdmin(viewer: Viewer): boolean {
  return viewer.role === "super_admin" && !viewer.organization;
}
