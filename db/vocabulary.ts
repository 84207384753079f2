/**
 * The fixed lists of values some tenant columns take (db/tenant.ts builds its enum columns from them).
 * They are plain data with no drizzle in sight, so a screen can render them without the schema and the
 * query builder ending up in the browser's bundle; screens reach them through app/models/vocabulary.ts.
 */

export const COURSE_TYPES = ["movie", "series", "download", "external_link"] as const;
export type CourseType = (typeof COURSE_TYPES)[number];

export const FILE_KINDS = ["image", "document", "video", "audio", "archive", "caption"] as const;
export type FileKind = (typeof FILE_KINDS)[number];

/** `scorm`: a SCORM package; `package`: an xAPI (tincan.xml) or cmi5 (cmi5.xml) package (docs/decisions/044-xapi-cmi5-packages.md). */
export const LESSON_KINDS = ["text", "image", "video", "quiz", "scorm", "package"] as const;
export type LessonKind = (typeof LESSON_KINDS)[number];

export const GROUP_RULE_FIELDS = [
  "email",
  "first_name",
  "last_name",
  "phone",
  "language",
  "role",
  "created_at",
  "completed_course",
  "member_of_group",
] as const;
export const GROUP_RULE_OPERATORS = [
  "equals",
  "not_equals",
  "contains",
  "starts_with",
  "ends_with",
  "before",
  "after",
  "is",
  "is_not",
] as const;

export const ACTIVITY_KINDS = [
  "lesson_completed",
  "course_completed",
  "quiz_passed",
  "quiz_first_try",
  "quiz_perfect",
  "streak_day",
  "bookmark",
  // Issue 49: a learning path done (its own points when it sets them).
  "path_completed",
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const BADGE_RULES = [
  "lessons_completed",
  "courses_completed",
  "quizzes_passed",
  "perfect_quizzes",
  "streak_days",
  "bookmarks",
  "points",
] as const;
export type BadgeRule = (typeof BADGE_RULES)[number];

/** A quiz question's kinds (docs/decisions/013-quizzes.md). */
export const QUESTION_TYPES = ["single", "multiple", "true_false", "text"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A certificate template's page (docs/decisions/015-certificates.md). */
export const CERTIFICATE_PAGE_SIZES = ["a4", "letter"] as const;
export const CERTIFICATE_ORIENTATIONS = ["landscape", "portrait"] as const;

/** A person's role in this organization; null means the account exists but has no access here. */
export const USER_ROLES = ["learner", "admin"] as const;
export type UserRole = (typeof USER_ROLES)[number];

/** An identity provider's kinds (docs/decisions/019-sso.md). */
export const SSO_DRIVER_KINDS = ["oidc", "oauth2"] as const;
export type SsoDriverKind = (typeof SSO_DRIVER_KINDS)[number];

/** The audit of what admins did (db/tenant/admin-audit.ts): its actions, who acted, and how. */
export const ADMIN_AUDIT_ACTIONS = [
  "member_added",
  "member_removed",
  "admin_granted",
  "admin_revoked",
  "deactivated",
  "reactivated",
  "role_changed",
  "course_assigned",
  // Bulk actions on courses (issue 50): the subject is the course (`subject_kind` "course").
  "course_published",
  "course_unpublished",
  "course_moved",
  "course_deleted",
  // An admin's changes to one person (issue 50; app/models/user-audited.server.ts).
  "created",
  "profile_changed",
  "deleted",
  // Issue 50's bulk actions on people; a value of a text column without a CHECK, so no migration (0033, 0049).
  "path_assigned",
  "invitation_resent",
] as const;
export type AdminAuditAction = (typeof ADMIN_AUDIT_ACTIONS)[number];
/** Who acted: an organization admin, a group admin, or a super-admin managing the organization. */
export const ADMIN_AUDIT_ROLES = ["admin", "group_admin", "super_admin"] as const;
export const ADMIN_AUDIT_VIA = ["page", "api"] as const;
/** What an audit entry is about: a person, or a course (bulk actions on courses). */
export const ADMIN_AUDIT_SUBJECTS = ["person", "course"] as const;
