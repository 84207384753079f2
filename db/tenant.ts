/**
 * One organization's own database (`<DATA_DIR>/org-<id>/db.sqlite`): the schema's one entry point, which
 * the app imports and drizzle-kit reads (db/drizzle.tenant.config.ts). Each area's tables live in a module
 * of db/tenant/, re-exported here; a feature adds its tables there (a new module is added below) and a
 * new migration in migrations/tenant/ (`npm run db:generate`).
 */
export * from "./tenant/people";
export * from "./tenant/sign-in";
export * from "./tenant/sso";
export * from "./tenant/files";
export * from "./tenant/courses";
export * from "./tenant/jobs";
export * from "./tenant/groups";
export * from "./tenant/user-imports";
export * from "./tenant/progress";
export * from "./tenant/quizzes";
export * from "./tenant/certificates";
export * from "./tenant/scorm";
export * from "./tenant/packages";
export * from "./tenant/paths";
export * from "./tenant/captions";
export * from "./tenant/analytics";
export * from "./tenant/leaderboard";
export * from "./tenant/assignments";
export * from "./tenant/compliance-report";
export * from "./tenant/reminders";
export * from "./tenant/change-tracking";
export * from "./tenant/admin-audit";
export * from "./tenant/xapi";

// The enum columns' values live in db/vocabulary.ts (plain data a screen may render); still exported here.
export {
  ACTIVITY_KINDS,
  BADGE_RULES,
  CERTIFICATE_ORIENTATIONS,
  CERTIFICATE_PAGE_SIZES,
  COURSE_TYPES,
  FILE_KINDS,
  GROUP_RULE_FIELDS,
  GROUP_RULE_OPERATORS,
  LESSON_KINDS,
  QUESTION_TYPES,
  SSO_DRIVER_KINDS,
  USER_ROLES,
} from "./vocabulary";
export type { ActivityKind, BadgeRule, CourseType, FileKind, LessonKind, QuestionType, SsoDriverKind, UserRole } from "./vocabulary";
