/**
 * The values of the tenant's enum columns (course types, lesson and file kinds, group rule fields,
 * leaderboard activities and badge rules) for routes and screens, which may not import db/ themselves
 * (tests/unit/layers.test.ts). Not a .server module: screens render these lists, and db/vocabulary.ts is
 * plain data, so the browser gets the lists without the schema or drizzle.
 */
export {
  ACTIVITY_KINDS,
  ADMIN_AUDIT_ACTIONS,
  ADMIN_AUDIT_SUBJECTS,
  ADMIN_AUDIT_VIA,
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
} from "../../db/vocabulary";
export type { ActivityKind, BadgeRule, CourseType, FileKind, LessonKind, QuestionType, SsoDriverKind, UserRole } from "../../db/vocabulary";
