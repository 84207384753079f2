import type { TenantConn } from "../../db/open";
import type { User } from "../../db/tenant";
import type { Viewer } from "../access/viewer";
import { recordAudit, type AuditChange, type AuditVia } from "./admin-audit.server";
import type { UserForm } from "./forms/users";
import { addUser, deleteUser, editUser, setUserDisabled, type UserPatch } from "./user.server";

/**
 * An admin's changes to one person, each with its entry in the audit of what admins did, in the change's own
 * transaction (issue 50): adding, editing (the type given, and which of the profile's fields changed), deactivating
 * or reactivating, and removing. The people screens and /api both come through here, so a change is in the audit
 * whichever way it was made. Who may make it is the caller's check (app/access).
 */
const PROFILE_FIELDS = ["email", "firstName", "lastName", "phone", "language"] as const;
const FIELD_NAMES: Record<(typeof PROFILE_FIELDS)[number], string> = {
  email: "email",
  firstName: "first_name",
  lastName: "last_name",
  phone: "phone",
  language: "language",
};

const subjectOf = (user: Pick<User, "id" | "email">) => ({ id: user.id, email: user.email });

export function addUserAudited(db: TenantConn, viewer: Viewer, via: AuditVia, input: UserForm) {
  return db.transaction((tx) => {
    const added = addUser(tx, input);
    if (added.ok) recordAudit(tx, viewer, via, [{ action: "created", subject: subjectOf(added.user), detail: added.user.role ?? "none" }]);
    return added;
  });
}

/** Saves an admin's edit of `before` (as editUser does); the audit names the type given and the fields that changed. */
export function editUserAudited(db: TenantConn, viewer: Viewer, via: AuditVia, before: User, input: UserPatch) {
  return db.transaction((tx) => {
    const result = editUser(tx, before.id, input);
    if (!result?.ok) return result;
    const after = result.user;
    const changes: AuditChange[] = [];
    if (after.role !== before.role) changes.push({ action: "role_changed", subject: subjectOf(after), detail: after.role ?? "none" });
    const fields = PROFILE_FIELDS.filter((f) => (after[f] ?? null) !== (before[f] ?? null)).map((f) => FIELD_NAMES[f]);
    // The address it had, for a changed address: the entry is found by either.
    if (fields.length)
      changes.push({
        action: "profile_changed",
        subject: subjectOf(after),
        detail: after.email === before.email ? fields.join(", ") : `${fields.join(", ")} (${before.email})`,
      });
    recordAudit(tx, viewer, via, changes);
    return result;
  });
}

/** Deactivates or reactivates; in the audit when it changes something. */
export function setUserDisabledAudited(db: TenantConn, viewer: Viewer, via: AuditVia, user: User, disabled: boolean) {
  if ((user.disabledAt !== null) === disabled) return false;
  db.transaction((tx) => {
    setUserDisabled(tx, user.id, disabled);
    recordAudit(tx, viewer, via, [{ action: disabled ? "deactivated" : "reactivated", subject: subjectOf(user) }]);
  });
  return true;
}

/** Removes a person (their sessions, tokens and memberships by cascade); the audit keeps who they were. */
export function deleteUserAudited(db: TenantConn, viewer: Viewer, via: AuditVia, user: User) {
  return db.transaction((tx) => {
    const removed = deleteUser(tx, user.id);
    if (removed) recordAudit(tx, viewer, via, [{ action: "deleted", subject: subjectOf(user), detail: user.role ?? "none" }]);
    return removed;
  });
}
