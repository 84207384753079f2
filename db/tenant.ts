import { sql } from "drizzle-orm";
import { loginThrottleColumns, personColumns, resetTokenColumns, sessionColumns, SESSION_KINDS } from "./auth-columns";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex, type AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";
import {
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
  type QuestionType,
} from "./vocabulary";

// The enum columns' values live in db/vocabulary.ts (plain data a screen may render); still exported here.
export {
  ACTIVITY_KINDS,
  BADGE_RULES,
  CERTIFICATE_ORIENTATIONS,
  CERTIFICATE_PAGE_SIZES,
  COURSE_TYPES,
  FILE_KINDS,
  GROUP_RULE_FIELDS,
  LESSON_KINDS,
  SSO_DRIVER_KINDS,
  USER_ROLES,
};
export type { ActivityKind, BadgeRule, CourseType, FileKind, LessonKind, SsoDriverKind, UserRole } from "./vocabulary";

/**
 * One organization's own database (`<DATA_DIR>/org-<id>/db.sqlite`). Each feature adds its tables here
 * and by a new migration in migrations/tenant/.
 */

export const categories = sqliteTable("categories", {
  id: id(),
  name: text("name").notNull(),
  position: integer("position").notNull().default(0),
  /** Learner home and browsing (issue 18): an image of the file library shown on /categories. */
  coverFileId: integer("cover_file_id"),
  ...timestamps(),
});

export const courses = sqliteTable(
  "courses",
  {
    id: id(),
    title: text("title").notNull(),
    /** Rich text, sanitised with an allowlist when saved. */
    description: text("description").notNull().default(""),
    type: text("type", { enum: COURSE_TYPES }).notNull().default("movie"),
    published: integer("published", { mode: "boolean" }).notNull().default(false),
    blockDefaultAccess: integer("block_default_access", { mode: "boolean" }).notNull().default(false),
    /** The course that must be completed before this one opens (docs/product.md §4 "enforce order"). */
    prerequisiteCourseId: integer("prerequisite_course_id").references((): AnySQLiteColumn => courses.id, {
      onDelete: "set null",
    }),
    categoryId: integer("category_id").references(() => categories.id, { onDelete: "set null" }),
    allowCertificates: integer("allow_certificates", { mode: "boolean" }).notNull().default(false),
    allowQuizzes: integer("allow_quizzes", { mode: "boolean" }).notNull().default(false),
    forceGroups: integer("force_groups", { mode: "boolean" }).notNull().default(false),
    /** For external-link courses. */
    externalUrl: text("external_url"),
    /** For download courses: the file to download (docs/product.md §1 "download (a file such as a PDF)"). */
    fileId: integer("file_id"),
    coverFileId: integer("cover_file_id"),
    /** Lessons can require all earlier lessons to be seen (docs/product.md §4). */
    sequentialLessons: integer("sequential_lessons", { mode: "boolean" }).notNull().default(false),
    position: integer("position").notNull().default(0),
    // ——— Recertification (issue 34; app/models/recertification.server.ts, docs/decisions/035-recertification.md) ———
    /** A completion of this course is valid this many months (1–120); null: for good. */
    validityMonths: integer("validity_months"),
    /** Its holders are assigned the course again this many days (1–365) before their completion expires. */
    reassignDaysBefore: integer("reassign_days_before").notNull().default(30),
    ...timestamps(),
  },
  (t) => [
    index("courses_published_position_idx").on(t.published, t.position),
    index("courses_category_idx").on(t.categoryId),
    check("courses_type_check", sql`${t.type} in ('movie','series','download','external_link')`),
  ],
);

export type Course = typeof courses.$inferSelect;
export type NewCourse = typeof courses.$inferInsert;

export const users = sqliteTable(
  "users",
  {
    ...personColumns(),
    role: text("role", { enum: USER_ROLES }),
    /**
     * Watch time is credited up to this moment (ms) and never past the wall clock: one clock per person,
     * whatever the number of lessons or devices sending heartbeats.
     */
    watchCreditedUntil: integer("watch_credited_until"),
    /** When the lesson player's instructions were shown to this person (docs/product.md §7 "player-window"). */
    playerInstructionsShownAt: integer("player_instructions_shown_at", { mode: "timestamp" }),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), index("users_created_at_idx").on(t.createdAt)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    ...sessionColumns(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("sessions_token_hash_unique").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

export const passwordResets = sqliteTable(
  "password_resets",
  {
    ...resetTokenColumns(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  // The user's recent tokens are counted before each requested mail (app/models/auth/tokens.server.ts).
  (t) => [
    uniqueIndex("password_resets_token_hash_unique").on(t.tokenHash),
    index("password_resets_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/** Single-use sign-in codes, exchanged by POST /api/auth/magic-link or the /auth/magic page. */
export const magicLinks = sqliteTable(
  "magic_links",
  {
    ...resetTokenColumns(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("magic_links_token_hash_unique").on(t.tokenHash), index("magic_links_user_created_idx").on(t.userId, t.createdAt)],
);

/** Failed sign-ins per account and client (db/auth-columns.ts); rows a day old are swept away. */
export const loginThrottle = sqliteTable(
  "login_throttle",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    ...loginThrottleColumns(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.client] }), index("login_throttle_last_failure_idx").on(t.lastFailureAt)],
);

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;

/** Groups of people (docs/product.md §3): members, and the members who administer the group. */
export const groups = sqliteTable("groups", {
  id: id(),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  // --- Groups and import (issue 14, docs/decisions/017-groups-and-import.md) ---
  /** An uploaded image (files.kind = image) shown on the group's card. */
  coverFileId: integer("cover_file_id"),
  /** How the group's rules combine: every rule must hold ("all") or one is enough ("any"). */
  ruleMatch: text("rule_match", { enum: ["all", "any"] })
    .notNull()
    .default("all"),
  // --- end groups and import ---
  ...timestamps(),
});

export const groupMembers = sqliteTable(
  "group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    // --- Groups and import (issue 14): how the person became a member. "manual" members stay until
    // removed by hand; "rule" members come and go as the group's rules are recomputed. ---
    source: text("source", { enum: ["manual", "rule"] })
      .notNull()
      .default("manual"),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index("group_members_user_idx").on(t.userId)],
);

/**
 * API tokens for scripts and apps: a name, a subset of the creator's capabilities (JSON array), an
 * expiry. Stored as SHA-256. `user_id` is the person whose rights bound the token; null for tokens a
 * super-admin made for the organization.
 */
export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: id(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    capabilities: text("capabilities", { mode: "json" }).$type<string[]>().notNull(),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp" }),
  },
  (t) => [uniqueIndex("api_tokens_token_hash_unique").on(t.tokenHash)],
);

export type Group = typeof groups.$inferSelect;
export type ApiToken = typeof apiTokens.$inferSelect;

/**
 * Uploaded files: the bytes live under the organization's folder (`files/<path>`), the row holds what
 * the bytes were found to be (type checked from their first bytes, never from the name).
 */
export const files = sqliteTable(
  "files",
  {
    id: id(),
    kind: text("kind", { enum: FILE_KINDS }).notNull(),
    mime: text("mime").notNull(),
    name: text("name").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    /** Relative to `<organization folder>/files/`. */
    path: text("path").notNull(),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [index("files_kind_idx").on(t.kind), uniqueIndex("files_path_unique").on(t.path)],
);

export type StoredFile = typeof files.$inferSelect;

/** A course's lessons (episodes), in order (docs/product.md §3 Lesson: text, image, quiz, video, interactive/scorm). */
export const lessons = sqliteTable(
  "lessons",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    kind: text("kind", { enum: LESSON_KINDS }).notNull().default("text"),
    /** Rich text (text lessons, and the introduction of any lesson), sanitised when saved. */
    body: text("body").notNull().default(""),
    /** An uploaded image or video. */
    fileId: integer("file_id").references(() => files.id, { onDelete: "set null" }),
    /** A video hosted elsewhere. */
    videoUrl: text("video_url"),
    durationSeconds: integer("duration_seconds"),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("lessons_course_position_idx").on(t.courseId, t.position)],
);

/** Files attached to a course for learners to download (docs/product.md §3 "materials"). */
export const materials = sqliteTable(
  "materials",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("materials_course_idx").on(t.courseId, t.position)],
);

export const links = sqliteTable(
  "links",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    url: text("url").notNull(),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [index("links_course_idx").on(t.courseId, t.position)],
);

export const carousels = sqliteTable("carousels", {
  id: id(),
  title: text("title").notNull(),
  published: integer("published", { mode: "boolean" }).notNull().default(false),
  position: integer("position").notNull().default(0),
  /** Learner home and browsing (issue 18): an image of the file library shown on /carousels. */
  coverFileId: integer("cover_file_id"),
  ...timestamps(),
});

export const carouselCourses = sqliteTable(
  "carousel_courses",
  {
    carouselId: integer("carousel_id")
      .notNull()
      .references(() => carousels.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.carouselId, t.courseId] })],
);

export const JOB_STATUSES = ["queued", "running", "done", "failed"] as const;

/**
 * Background work of this organization (course clone, later imports and PDF renders): survives a
 * restart, reports progress to the page that started it.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    id: id(),
    kind: text("kind").notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    progress: integer("progress").notNull().default(0),
    result: text("result", { mode: "json" }).$type<Record<string, unknown>>(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    startedAt: integer("started_at", { mode: "timestamp" }),
    finishedAt: integer("finished_at", { mode: "timestamp" }),
    ...timestamps(),
  },
  (t) => [index("jobs_status_idx").on(t.status)],
);

export type Lesson = typeof lessons.$inferSelect;
export type Material = typeof materials.$inferSelect;
export type Link = typeof links.$inferSelect;
export type Carousel = typeof carousels.$inferSelect;
export type Category = typeof categories.$inferSelect;
export type Job = typeof jobs.$inferSelect;

/** A learner's place in one lesson (docs/product.md §7 "lesson-progresses"). */
export const lessonProgress = sqliteTable(
  "lesson_progress",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    positionSeconds: integer("position_seconds").notNull().default(0),
    /** Seconds actually watched: each heartbeat adds at most the wall-clock time since the previous one. */
    watchedSeconds: integer("watched_seconds").notNull().default(0),
    lastHeartbeatAt: integer("last_heartbeat_at", { mode: "timestamp_ms" }),
    completedAt: integer("completed_at", { mode: "timestamp" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("lesson_progress_user_lesson_unique").on(t.userId, t.lessonId),
    index("lesson_progress_user_course_idx").on(t.userId, t.courseId),
  ],
);

/**
 * A person's completion of a course: one row per person and course, holding their latest completion. A
 * course with a validity (courses.validity_months) gives it an expiry day; completing it again after a
 * renewal was opened (app/models/completion-cycle.server.ts) moves the earlier completion to
 * `course_completion_history` and counts the cycle up (docs/decisions/035-recertification.md).
 */
export const courseCompletions = sqliteTable(
  "course_completions",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    completedAt: integer("completed_at", { mode: "timestamp" }).notNull(),
    /** Which completion this is: 1 for the first, 2 after one renewal, … */
    cycle: integer("cycle").notNull().default(1),
    /** The last local day (YYYY-MM-DD, organization's zone) the completion is valid on; null: for good. */
    expiresOn: text("expires_on"),
    /** Set while a renewal is open (re-assigned, or taken again after expiry): lessons count again from then. */
    renewalStartedAt: integer("renewal_started_at", { mode: "timestamp" }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.courseId] }),
    index("course_completions_expiry_idx").on(t.expiresOn),
    index("course_completions_course_expiry_idx").on(t.courseId, t.expiresOn),
  ],
);

/** Earlier completions of a course, moved here when the person completed it again (their history). */
export const courseCompletionHistory = sqliteTable(
  "course_completion_history",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    cycle: integer("cycle").notNull(),
    completedAt: integer("completed_at", { mode: "timestamp" }).notNull(),
    expiresOn: text("expires_on"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId, t.cycle] })],
);

/** Watch time per learner and day, for analytics and the leaderboard (docs/product.md §3 KPIs, §9 widgets). */
export const watchTimeDaily = sqliteTable(
  "watch_time_daily",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    seconds: integer("seconds").notNull().default(0),
  },
  // day first: the leaderboard's "most watch time in 7 days" widget reads a window of days.
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index("watch_time_daily_day_idx").on(t.day, t.userId, t.seconds)],
);

export const bookmarks = sqliteTable(
  "bookmarks",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
  },
  // created_at: the leaderboard's "most bookmarks in 30 days" widget reads a window, not the table.
  (t) => [primaryKey({ columns: [t.userId, t.courseId] }), index("bookmarks_created_user_idx").on(t.createdAt, t.userId)],
);

export const ratings = sqliteTable(
  "ratings",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    stars: integer("stars").notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.courseId] }),
    check("ratings_stars_check", sql`${t.stars} between 1 and 5`),
    index("ratings_course_idx").on(t.courseId),
  ],
);

/** Which groups may take a course that is blocked by default or limited to its groups (docs/product.md §3, §4). */
export const groupCourses = sqliteTable(
  "group_courses",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.courseId] }), index("group_courses_course_idx").on(t.courseId)],
);

export type LessonProgress = typeof lessonProgress.$inferSelect;

// ── Single sign-on (issue 17, docs/decisions/019-sso.md) ─────────────────────────────────────────────

/**
 * An identity provider people of this organization may sign in with: OpenID Connect (issuer with
 * discovery) or plain OAuth2 (three addresses and the claims that name a person). The client secret is
 * sealed (AES-256-GCM) with the server's key and never leaves the server in the clear.
 */
export const ssoDrivers = sqliteTable(
  "sso_drivers",
  {
    id: id(),
    /** Names the driver in addresses: /auth/sso/{slug}/callback. */
    slug: text("slug").notNull(),
    kind: text("kind", { enum: SSO_DRIVER_KINDS }).notNull(),
    label: text("label").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** OpenID Connect: the issuer; its /.well-known/openid-configuration is read. */
    issuer: text("issuer"),
    /** Plain OAuth2: the provider's addresses. */
    authorizationUrl: text("authorization_url"),
    tokenUrl: text("token_url"),
    userinfoUrl: text("userinfo_url"),
    clientId: text("client_id").notNull(),
    /** `v1.<iv>.<tag>.<ciphertext>`, sealed with the server's key for this organization. */
    clientSecretSealed: text("client_secret_sealed").notNull(),
    scopes: text("scopes").notNull().default("openid email profile"),
    /** Which claims give the subject, e-mail and names (plain OAuth2; OIDC uses the standard ones). */
    subjectClaim: text("subject_claim").notNull().default("sub"),
    emailClaim: text("email_claim").notNull().default("email"),
    firstNameClaim: text("first_name_claim").notNull().default("given_name"),
    lastNameClaim: text("last_name_claim").notNull().default("family_name"),
    /** Just-in-time: create a person on their first sign-in; otherwise only existing people get in. */
    createUsers: integer("create_users", { mode: "boolean" }).notNull().default(false),
    defaultRole: text("default_role", { enum: USER_ROLES }).notNull().default("learner"),
    /** JSON array of group ids new people join. */
    defaultGroupIds: text("default_group_ids").notNull().default("[]"),
    /** People who sign in this way cannot edit their name, e-mail or password (docs/product.md §4). */
    managedExternally: integer("managed_externally", { mode: "boolean" }).notNull().default(true),
    /** Link to an existing person by e-mail, when the provider says the e-mail is verified. */
    linkByEmail: integer("link_by_email", { mode: "boolean" }).notNull().default(false),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [uniqueIndex("sso_drivers_slug_unique").on(t.slug), check("sso_drivers_kind_check", sql`${t.kind} in ('oidc','oauth2')`)],
);

export type SsoDriver = typeof ssoDrivers.$inferSelect;

/** Who a provider says someone is: the pair (issuer, subject), tied to one person of this organization. */
export const ssoIdentities = sqliteTable(
  "sso_identities",
  {
    id: id(),
    driverId: integer("driver_id")
      .notNull()
      .references(() => ssoDrivers.id, { onDelete: "cascade" }),
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [uniqueIndex("sso_identities_issuer_subject_unique").on(t.issuer, t.subject), index("sso_identities_user_idx").on(t.userId)],
);

/**
 * A sign-in on its way to the provider: the state (stored hashed), the PKCE verifier and nonce, bound to
 * the browser (a random value in a cookie) or to the app (a value only the app was given). Single use,
 * 10 minutes.
 */
export const ssoLogins = sqliteTable(
  "sso_logins",
  {
    id: id(),
    stateHash: text("state_hash").notNull(),
    driverId: integer("driver_id")
      .notNull()
      .references(() => ssoDrivers.id, { onDelete: "cascade" }),
    bindingHash: text("binding_hash").notNull(),
    kind: text("kind", { enum: SESSION_KINDS }).notNull(),
    codeVerifier: text("code_verifier").notNull(),
    nonce: text("nonce").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    redirectTo: text("redirect_to").notNull().default(""),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [uniqueIndex("sso_logins_state_unique").on(t.stateHash), index("sso_logins_expires_idx").on(t.expiresAt)],
);

/** Which sign-in methods are on; one row (id 1), absent means e-mail and password are on. */
export const ssoSettings = sqliteTable(
  "sso_settings",
  {
    id: integer("id").primaryKey(),
    passwordLogin: integer("password_login", { mode: "boolean" }).notNull().default(true),
  },
  (t) => [check("sso_settings_single_row", sql`${t.id} = 1`)],
);
// ---------------------------------------------------------------------------------------------------
// Certificates (issue 12, docs/decisions/015-certificates.md)
// ---------------------------------------------------------------------------------------------------

/** One text block of a certificate template: plain text with placeholders, placed in % of the page. */
export interface CertificateBlock {
  text: string;
  /** Left edge and top edge, in % of the page's width and height. */
  x: number;
  y: number;
  /** Width in % of the page's width. */
  width: number;
  /** Font size in points. */
  size: number;
  align: "left" | "center" | "right";
  bold: boolean;
  /** #rrggbb */
  color: string;
}

/** The look of a certificate: what is snapshot onto each certificate when it is issued. */
export interface CertificateLayout {
  pageSize: (typeof CERTIFICATE_PAGE_SIZES)[number];
  orientation: (typeof CERTIFICATE_ORIENTATIONS)[number];
  backgroundFileId: number | null;
  showLogo: boolean;
  showQr: boolean;
  blocks: CertificateBlock[];
}

export const certificateTemplates = sqliteTable("certificate_templates", {
  id: id(),
  name: text("name").notNull(),
  /** The organization's default template, used by courses that do not name one (at most one row). */
  isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
  layout: text("layout", { mode: "json" }).$type<CertificateLayout>().notNull(),
  ...timestamps(),
});

/** Which template a course with allow_certificates uses; a course without a row uses the default. */
export const courseCertificateTemplates = sqliteTable("course_certificate_templates", {
  courseId: integer("course_id")
    .primaryKey()
    .references(() => courses.id, { onDelete: "cascade" }),
  templateId: integer("template_id")
    .notNull()
    .references(() => certificateTemplates.id, { onDelete: "cascade" }),
});

/**
 * An issued certificate: once per learner and course, with a stable public id. Names, title, score and
 * the template's layout are snapshot at issue, so a certificate keeps its look and its words.
 */
export const certificates = sqliteTable(
  "certificates",
  {
    id: id(),
    /** The stable id printed on the PDF and used by the public verification page. */
    publicId: text("public_id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id").references(() => courses.id, { onDelete: "set null" }),
    /** The course id at issue, kept when the course is deleted (for the one-per-course rule). */
    issuedForCourseId: integer("issued_for_course_id").notNull(),
    templateId: integer("template_id").references(() => certificateTemplates.id, { onDelete: "set null" }),
    learnerName: text("learner_name").notNull(),
    courseTitle: text("course_title").notNull(),
    /** The learner's interface language at issue: {completion_date} is written in it. */
    locale: text("locale").notNull(),
    /** Quiz score out of 100 at issue, when the course has one. */
    score: integer("score"),
    layout: text("layout", { mode: "json" }).$type<CertificateLayout>().notNull(),
    issuedAt: integer("issued_at", { mode: "timestamp" }).notNull(),
    /** The completion cycle it was issued for (course_completions.cycle): one certificate per cycle. */
    cycle: integer("cycle").notNull().default(1),
    /** The completion's expiry day at issue (YYYY-MM-DD, organization's zone); null: it never expires. */
    expiresOn: text("expires_on"),
    /** The rendered PDF (a row of `files`), once the render job has run. */
    pdfFileId: integer("pdf_file_id").references(() => files.id, { onDelete: "set null" }),
    revokedAt: integer("revoked_at", { mode: "timestamp" }),
    revokedReason: text("revoked_reason"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("certificates_public_id_unique").on(t.publicId),
    uniqueIndex("certificates_user_course_cycle_unique").on(t.userId, t.issuedForCourseId, t.cycle),
  ],
);

export type CertificateTemplate = typeof certificateTemplates.$inferSelect;
export type Certificate = typeof certificates.$inferSelect;
// ---------------------------------------------------------------------------------------------------
// SCORM (issue 16, docs/decisions/020-scorm.md): a lesson's package and each learner's runtime data.
// ---------------------------------------------------------------------------------------------------

export const SCORM_VERSIONS = ["1.2", "2004-2", "2004-3", "2004-4"] as const;
export type ScormVersion = (typeof SCORM_VERSIONS)[number];

/** One launchable item (SCO or asset) of a package's default organization, in manifest order. */
export interface ScormItem {
  identifier: string;
  title: string;
  /** Launch path inside the package folder, with the item's parameters (query or fragment) appended. */
  launch: string;
  scormType: "sco" | "asset";
  /** 1.2 `adlcp:masteryscore` (0–100), 2004 `imsss:minNormalizedMeasure` (-1…1). */
  masteryScore: number | null;
  launchData: string | null;
  depth: number;
  /**
   * The chapter headings (items without a resource of their own) that open just before this item in the
   * contents list, outermost first (a hidden chapter's only closes those before it). Absent in packages
   * installed before issue 45.
   */
  headings?: Array<{ title: string; depth: number; hidden?: boolean }>;
  /** `isvisible="false"`: not shown in the contents list. */
  hidden?: boolean;
  /**
   * SCORM 2004 `imsss:deliveryControls` (both default to false): whether the content alone decides the
   * completion and the satisfaction of the activity; when false, the LMS sets them when the attempt ends
   * (docs/decisions/020-scorm.md "Status at exit").
   */
  completionSetByContent?: boolean;
  objectiveSetByContent?: boolean;
}

/** The SCORM package of a lesson (one a lesson; replacing it swaps the folder and keeps the learners' data). */
export const scormPackages = sqliteTable(
  "scorm_packages",
  {
    id: id(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    version: text("version", { enum: SCORM_VERSIONS }).notNull(),
    title: text("title").notNull(),
    /** Folder name under `<organization folder>/scorm/`. */
    folder: text("folder").notNull(),
    items: text("items", { mode: "json" }).$type<ScormItem[]>().notNull(),
    fileCount: integer("file_count").notNull(),
    unpackedBytes: integer("unpacked_bytes").notNull(),
    uploadedBy: integer("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [uniqueIndex("scorm_packages_lesson_unique").on(t.lessonId)],
);

/** A learner's runtime data for one SCO of a lesson: the CMI elements as committed, and what they mean. */
export const scormAttempts = sqliteTable(
  "scorm_attempts",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    /** The item's identifier in the manifest. */
    scoId: text("sco_id").notNull(),
    version: text("version", { enum: SCORM_VERSIONS }).notNull(),
    /** Flattened CMI elements (`cmi.suspend_data` → value), validated against the data model. */
    cmi: text("cmi", { mode: "json" }).$type<Record<string, string>>().notNull(),
    /** 1.2 lesson_status, or 2004 completion_status. */
    completionStatus: text("completion_status").notNull().default("not attempted"),
    /** 2004 success_status (passed, failed, unknown); 1.2 passed/failed also land here. */
    successStatus: text("success_status").notNull().default("unknown"),
    scoreRaw: real("score_raw"),
    scoreMin: real("score_min"),
    scoreMax: real("score_max"),
    /** 2004 scaled score (-1…1); for 1.2, raw / max when both are known. */
    scoreScaled: real("score_scaled"),
    totalSeconds: integer("total_seconds").notNull().default(0),
    completedAt: integer("completed_at", { mode: "timestamp" }),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("scorm_attempts_user_lesson_sco_unique").on(t.userId, t.lessonId, t.scoId),
    index("scorm_attempts_lesson_idx").on(t.lessonId),
  ],
);

export type ScormPackage = typeof scormPackages.$inferSelect;
export type ScormAttempt = typeof scormAttempts.$inferSelect;

// ---- Analytics (issue 15, docs/decisions/018-analytics.md) ----
// Facts maintained on write by the learning-event hooks and the file server, one row per UTC hour, so
// that days, ISO weeks and months in any organization time zone are sums of whole hours and a year of
// KPIs reads at most 8,760 rows per metric, whatever the number of learners or progress rows.

export const ANALYTICS_METRICS = ["watch_seconds", "completions", "downloads", "quiz_attempts", "quiz_passes"] as const;
export type AnalyticsMetric = (typeof ANALYTICS_METRICS)[number];

/**
 * The organization's facts per metric and UTC hour (unix seconds / 3600): one row per course, and a
 * total row (course 0) that every fact adds to, so a KPI series reads one row per hour however many
 * courses there are (the totals index).
 */
export const analyticsHourly = sqliteTable(
  "analytics_hourly",
  {
    metric: text("metric", { enum: ANALYTICS_METRICS }).notNull(),
    hour: integer("hour").notNull(),
    /** 0: the organization's total. No foreign key: a deleted course's history still counts in the totals. */
    courseId: integer("course_id").notNull().default(0),
    value: integer("value").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.metric, t.hour, t.courseId] }),
    index("analytics_hourly_totals_idx").on(t.metric, t.courseId, t.hour, t.value),
  ],
);

/**
 * The organization's facts per **local day** of its time zone and course (course 0: the total), rolled up
 * from analytics_hourly by the same writes (docs/decisions/018-analytics.md, "Daily rollups"): one row per
 * course and day with every metric, and each metric's running total up to and including the day, so a
 * period's sums per course are two index seeks (the totals at its last day minus those before its first),
 * however long the period. WITHOUT ROWID in the migration: the primary key is the table.
 */
export const analyticsDaily = sqliteTable(
  "analytics_daily",
  {
    courseId: integer("course_id").notNull().default(0),
    /** The local day (YYYY-MM-DD) in analytics_rollup.time_zone whose midnight-to-midnight holds the hours. */
    day: text("day").notNull(),
    completions: integer("completions").notNull().default(0),
    watchSeconds: integer("watch_seconds").notNull().default(0),
    downloads: integer("downloads").notNull().default(0),
    quizAttempts: integer("quiz_attempts").notNull().default(0),
    quizPasses: integer("quiz_passes").notNull().default(0),
    completionsToDate: integer("completions_to_date").notNull().default(0),
    watchSecondsToDate: integer("watch_seconds_to_date").notNull().default(0),
    downloadsToDate: integer("downloads_to_date").notNull().default(0),
    quizAttemptsToDate: integer("quiz_attempts_to_date").notNull().default(0),
    quizPassesToDate: integer("quiz_passes_to_date").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.day] })],
);

/**
 * The zone analytics_daily is counted in (one row), and whether it is complete in that zone: a change of
 * the organization's zone rebuilds it from analytics_hourly (a job, or `npm run analytics:rebuild`);
 * until then the readers add up the hourly facts instead.
 */
export const analyticsRollup = sqliteTable("analytics_rollup", {
  id: integer("id").primaryKey(),
  timeZone: text("time_zone"),
  ready: integer("ready", { mode: "boolean" }).notNull().default(false),
  builtAt: integer("built_at", { mode: "timestamp" }),
});

/** The same facts per person, for the figures of a group admin's groups. */
export const analyticsUserHourly = sqliteTable(
  "analytics_user_hourly",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    metric: text("metric", { enum: ANALYTICS_METRICS }).notNull(),
    hour: integer("hour").notNull(),
    courseId: integer("course_id").notNull().default(0),
    value: integer("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.metric, t.hour, t.courseId] })],
);

/* ---------------------------------------------------------------------------------------------------------
 * Quizzes (issue 10, docs/decisions/013-quizzes.md). A quiz has ordered questions; a `quiz` lesson points at
 * one quiz (`quiz_lessons`), so a quiz can serve several courses. An attempt (the /api "submission") copies
 * the questions, with their correct answers, when it starts: grading runs against that snapshot, so editing
 * a quiz never changes past results. The correct answers live only on the server until the attempt ends.
 * ------------------------------------------------------------------------------------------------------- */
export { QUESTION_TYPES, type QuestionType };

/** A choice of a single, multiple or true/false question. true/false questions have the ids "true" and "false". */
export interface QuizOption {
  id: string;
  text: string;
  correct: boolean;
}

export const quizzes = sqliteTable("quizzes", {
  id: id(),
  title: text("title").notNull(),
  description: text("description").notNull().default(""),
  /** After this moment no attempt may start, and open attempts take no more answers. */
  deadline: integer("deadline", { mode: "timestamp" }),
  /** Pass requirement: the minimum number of correct answers (never more than the number of questions). */
  passMin: integer("pass_min").notNull().default(0),
  /** null: unlimited retakes. */
  maxAttempts: integer("max_attempts"),
  ...timestamps(),
});

export const quizQuestions = sqliteTable(
  "quiz_questions",
  {
    id: id(),
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    type: text("type", { enum: QUESTION_TYPES }).notNull(),
    prompt: text("prompt").notNull(),
    /** Shown after submission. */
    explanation: text("explanation").notNull().default(""),
    options: text("options", { mode: "json" }).$type<QuizOption[]>().notNull(),
    /** Short-text questions: the accepted answers (matched ignoring case and spaces). */
    accepted: text("accepted", { mode: "json" }).$type<string[]>().notNull(),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index("quiz_questions_quiz_idx").on(t.quizId, t.position),
    check("quiz_questions_type_check", sql`${t.type} in ('single','multiple','true_false','text')`),
  ],
);

/** Which quiz a `quiz` lesson shows. */
export const quizLessons = sqliteTable(
  "quiz_lessons",
  {
    lessonId: integer("lesson_id")
      .primaryKey()
      .references(() => lessons.id, { onDelete: "cascade" }),
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
  },
  (t) => [index("quiz_lessons_quiz_idx").on(t.quizId)],
);

/** The questions as they were when an attempt started (what it is graded against). */
export interface QuestionSnapshot {
  id: number;
  type: QuestionType;
  prompt: string;
  explanation: string;
  options: QuizOption[];
  accepted: string[];
}

export const quizAttempts = sqliteTable(
  "quiz_attempts",
  {
    id: id(),
    quizId: integer("quiz_id")
      .notNull()
      .references(() => quizzes.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The quiz lesson it was taken in, when taken inside a course. */
    lessonId: integer("lesson_id").references(() => lessons.id, { onDelete: "set null" }),
    courseId: integer("course_id").references(() => courses.id, { onDelete: "set null" }),
    attemptNumber: integer("attempt_number").notNull(),
    questions: text("questions", { mode: "json" }).$type<QuestionSnapshot[]>().notNull(),
    passMin: integer("pass_min").notNull(),
    /** The question the learner is on (0-based), so another device resumes at the same place. */
    current: integer("current").notNull().default(0),
    startedAt: integer("started_at", { mode: "timestamp" }).notNull(),
    endedAt: integer("ended_at", { mode: "timestamp" }),
    /** Out of 100, set when the attempt ends. */
    score: integer("score"),
    correctCount: integer("correct_count"),
    passed: integer("passed", { mode: "boolean" }),
    /** true when the deadline ended it rather than the learner. */
    expired: integer("expired", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("quiz_attempts_number_unique").on(t.quizId, t.userId, t.attemptNumber),
    // One open attempt per learner and quiz.
    uniqueIndex("quiz_attempts_open_unique")
      .on(t.quizId, t.userId)
      .where(sql`ended_at is null`),
    index("quiz_attempts_user_idx").on(t.userId),
  ],
);

/** The learner's answer to one question of an attempt; answering again replaces it. */
export const quizAnswers = sqliteTable(
  "quiz_answers",
  {
    attemptId: integer("attempt_id")
      .notNull()
      .references(() => quizAttempts.id, { onDelete: "cascade" }),
    questionId: integer("question_id").notNull(),
    /** Chosen option ids (choice questions) or the typed text (short text). */
    choices: text("choices", { mode: "json" }).$type<string[]>().notNull(),
    text: text("text"),
    /** Set when the attempt is graded. */
    correct: integer("correct", { mode: "boolean" }),
    updatedAt: integer("updated_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.questionId] })],
);

export type Quiz = typeof quizzes.$inferSelect;
export type QuizQuestion = typeof quizQuestions.$inferSelect;
export type QuizAttempt = typeof quizAttempts.$inferSelect;
export type QuizAnswer = typeof quizAnswers.$inferSelect;

// --- Groups and import (issue 14, docs/decisions/017-groups-and-import.md) ---

export { GROUP_RULE_OPERATORS };

/**
 * Rule groups (docs/product.md §3 "rule, operator, value"): a person who matches the group's rules (all or any) is a
 * member. A rule about a course or another group names it by foreign key, so deleting the course or group
 * deletes the rule instead of leaving it pointing at nothing.
 */
export const groupRules = sqliteTable(
  "group_rules",
  {
    id: id(),
    groupId: integer("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    field: text("field", { enum: GROUP_RULE_FIELDS }).notNull(),
    operator: text("operator", { enum: GROUP_RULE_OPERATORS }).notNull(),
    value: text("value").notNull().default(""),
    courseId: integer("course_id").references(() => courses.id, { onDelete: "cascade" }),
    otherGroupId: integer("other_group_id").references(() => groups.id, { onDelete: "cascade" }),
  },
  (t) => [index("group_rules_group_idx").on(t.groupId), index("group_rules_other_group_idx").on(t.otherGroupId)],
);

/** The organization's defaults for new people (the users screen's "settings"): one row, id 1. */
export const userSettings = sqliteTable(
  "user_settings",
  {
    id: integer("id").primaryKey(),
    defaultLanguage: text("default_language"),
    /** Groups every new person joins (by hand, so they stay), as a JSON array of group ids. */
    defaultGroupIds: text("default_group_ids", { mode: "json" })
      .$type<number[]>()
      .notNull()
      .default(sql`'[]'`),
    /** Whether people added by a CSV import are mailed an invitation (after the import commits). */
    inviteImported: integer("invite_imported", { mode: "boolean" }).notNull().default(true),
    ...timestamps(),
  },
  (t) => [check("user_settings_single_row", sql`${t.id} = 1`)],
);

export const USER_IMPORT_STATUSES = ["preview", "queued", "running", "done", "failed"] as const;

/**
 * A CSV upload between its preview and its import: the checked file waits here, so the admin confirms
 * the preview without uploading again (and without JavaScript); the import job reads it from here.
 */
export const userImports = sqliteTable("user_imports", {
  id: id(),
  status: text("status", { enum: USER_IMPORT_STATUSES }).notNull().default("preview"),
  fileName: text("file_name").notNull(),
  content: text("content").notNull(),
  rowCount: integer("row_count").notNull(),
  groupId: integer("group_id").references(() => groups.id, { onDelete: "set null" }),
  sendInvitations: integer("send_invitations", { mode: "boolean" }).notNull().default(true),
  jobId: integer("job_id").references(() => jobs.id, { onDelete: "set null" }),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  ...timestamps(),
});

export type GroupRule = typeof groupRules.$inferSelect;
export type UserImport = typeof userImports.$inferSelect;
// --- end groups and import ---

/* ------------------------------------------------------------------------------------------------------
 * Leaderboard: points, levels, badges (issue 13, docs/decisions/016-leaderboard.md)
 * ---------------------------------------------------------------------------------------------------- */

/** One row (id 1): the organization's calendar for streaks and weekly/monthly boards. */
export const leaderboardSettings = sqliteTable("leaderboard_settings", {
  id: integer("id").primaryKey(),
  /** IANA time zone; streaks count calendar days here (the spec's Danish default). */
  timeZone: text("time_zone").notNull().default("Europe/Copenhagen"),
  /** Boards count from these moments on, per period (an admin's reset); null = never reset. */
  resetAllAt: integer("reset_all_at", { mode: "timestamp" }),
  resetMonthAt: integer("reset_month_at", { mode: "timestamp" }),
  resetWeekAt: integer("reset_week_at", { mode: "timestamp" }),
  ...timestamps(),
});

/** Points per activity, editable by admins; a switched-off activity awards nothing. */
export const leaderboardActivities = sqliteTable(
  "leaderboard_activities",
  {
    kind: text("kind", { enum: ACTIVITY_KINDS }).primaryKey(),
    points: integer("points").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** At most this many awards of the activity per learner and calendar day; null = no cap. */
    dailyCap: integer("daily_cap"),
    ...timestamps(),
  },
  (t) => [check("leaderboard_activities_points_check", sql`${t.points} between 0 and 100000`)],
);

/**
 * The append-only points ledger. (user, activity, ref) is unique, so a repeated event (the same completion
 * posted 50 times, a bookmark toggled off and on) awards once. Totals below are maintained from it.
 */
export const pointsLedger = sqliteTable(
  "points_ledger",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    activity: text("activity", { enum: ACTIVITY_KINDS }).notNull(),
    /** What earned it, e.g. `lesson:12`, `quiz:3`, `day:2026-11-23`. */
    ref: text("ref").notNull(),
    courseId: integer("course_id"),
    points: integer("points").notNull(),
    /** Calendar day in the organization's time zone (daily caps). */
    day: text("day").notNull(),
    createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [
    uniqueIndex("points_ledger_award_unique").on(t.userId, t.activity, t.ref),
    index("points_ledger_user_activity_day_idx").on(t.userId, t.activity, t.day),
    index("points_ledger_created_idx").on(t.createdAt),
  ],
);

export const BOARD_PERIODS = ["life", "all", "month", "week", "course"] as const;
export type BoardPeriod = (typeof BOARD_PERIODS)[number];

/**
 * Maintained sums of the ledger per learner and board: `life` (never reset; levels), `all` (the all-time
 * board, resettable), `month` (key `2026-11`), `week` (key `2026-W47`), `course` (key = course id).
 */
export const pointsTotals = sqliteTable(
  "points_totals",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    period: text("period", { enum: BOARD_PERIODS }).notNull(),
    key: text("key").notNull(),
    points: integer("points").notNull().default(0),
    /** Copy of the learner's opt-out, so a board reads one index range without a join. */
    hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.period, t.key] }),
    index("points_totals_board_idx").on(t.period, t.key, t.hidden, t.points, t.userId),
  ],
);

/**
 * How many visible learners hold each points value on each board. A rank is 1 + the learners above, read
 * from the few distinct values above one's own instead of counting everyone (cheap at 100,000 learners).
 */
export const pointsHistogram = sqliteTable(
  "points_histogram",
  {
    period: text("period", { enum: BOARD_PERIODS }).notNull(),
    key: text("key").notNull(),
    points: integer("points").notNull(),
    learners: integer("learners").notNull(),
  },
  (t) => [primaryKey({ columns: [t.period, t.key, t.points] })],
);

/** Per learner: opt-out, counters the badge rules read, and the daily streak. */
export const learnerStats = sqliteTable(
  "learner_stats",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    hidden: integer("hidden", { mode: "boolean" }).notNull().default(false),
    lessonsCompleted: integer("lessons_completed").notNull().default(0),
    coursesCompleted: integer("courses_completed").notNull().default(0),
    quizzesPassed: integer("quizzes_passed").notNull().default(0),
    perfectQuizzes: integer("perfect_quizzes").notNull().default(0),
    bookmarks: integer("bookmarks").notNull().default(0),
    currentStreak: integer("current_streak").notNull().default(0),
    longestStreak: integer("longest_streak").notNull().default(0),
    /** Last calendar day (organization's time zone) with learning activity. */
    lastActiveDay: text("last_active_day"),
  },
  (t) => [index("learner_stats_streak_idx").on(t.hidden, t.currentStreak, t.lastActiveDay)],
);

/** Named thresholds of lifetime points, each shown with a badge image (docs/product.md §3 "leaderboard levels"). */
export const levels = sqliteTable(
  "levels",
  {
    id: id(),
    name: text("name").notNull(),
    threshold: integer("threshold").notNull(),
    /** The badge's colour (#rrggbb); the image is drawn from it and the level's initial. */
    color: text("color").notNull().default("#6366f1"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("levels_threshold_unique").on(t.threshold)],
);

/** Milestones: a badge is earned when the learner's counter for `rule` reaches `threshold`. */
export const badges = sqliteTable(
  "badges",
  {
    id: id(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    rule: text("rule", { enum: BADGE_RULES }).notNull(),
    threshold: integer("threshold").notNull(),
    color: text("color").notNull().default("#f59e0b"),
    ...timestamps(),
  },
  (t) => [index("badges_rule_threshold_idx").on(t.rule, t.threshold)],
);

export const userBadges = sqliteTable(
  "user_badges",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    badgeId: integer("badge_id")
      .notNull()
      .references(() => badges.id, { onDelete: "cascade" }),
    /** Random, public: the Open Badges assertion lives at /badges/assertions/{uid}. */
    uid: text("uid").notNull(),
    awardedAt: integer("awarded_at", { mode: "timestamp" }).notNull(),
  },
  (t) => [uniqueIndex("user_badges_user_badge_unique").on(t.userId, t.badgeId), uniqueIndex("user_badges_uid_unique").on(t.uid)],
);

export type Level = typeof levels.$inferSelect;
export type Badge = typeof badges.$inferSelect;
export type LeaderboardActivity = typeof leaderboardActivities.$inferSelect;

/*
 * ——— Visitors' page cache (docs/decisions/026-visitor-page-cache.md) ———
 * One row whose `version` moves, by triggers (migration 0018), on every change to a table a visitor's
 * browsing page reads (courses, lessons, files, categories, carousels, carousel_courses): the server keeps
 * a visitor's rendered page only while this number is unchanged. A browsing page that starts reading
 * another table must add that table's triggers.
 */
export const contentVersion = sqliteTable("content_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/*
 * ——— Signed-in learners' kept pages (docs/decisions/039-learner-page-cache.md) ———
 * A number per person, moved by triggers (migrations 0031, 0032) on every change to a row of theirs that a
 * learner's home, course or leaderboard page reads (progress, completions, certificates, bookmarks,
 * assignments to them, group memberships, badges, watch time, their own row). With `content_version` (row
 * 1; a row 2 that migration 0031 moves with the shared tables those pages read and visitors' pages do not:
 * assignments, links, materials, ratings, leaderboard settings; and a row 3, compared by the leaderboard
 * alone, that migration 0032 moves with points, streaks, levels, badges and names) it says whether a kept
 * page still shows what it would now. tests/integration/learner-page-cache.test.ts lists the tables those
 * pages read and fails when one is covered by none.
 */
export const userVersions = sqliteTable("user_versions", {
  userId: integer("user_id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/*
 * ——— What the platform database keeps of this organization (issue 31; db/platform.ts) ———
 * Triggers (migration 0020) add a row for every person added, removed or changed in what /admin/users
 * shows (e-mail, name, role, disabled), and a row with no user for every course added or removed. The
 * server carries them over to the platform database and empties the table (app/models/tenant-summary.server.ts).
 */
export const summaryChanges = sqliteTable("summary_changes", {
  id: integer("id").primaryKey(),
  /** The person whose entry changed; null when the number of courses did. */
  userId: integer("user_id"),
});

/*
 * ——— Compliance assignments (issue 34; app/models/assignment.server.ts) ———
 * An assignment says "this course, for this person or for the members of this group (by hand or by its
 * rules), due on a fixed local day or N days after each person was assigned or joined". Its people are
 * materialized in `assignment_people`, one row per person: rows are added when the assignment is made and
 * when someone joins the group later, and are kept (marked `left_at`) when they leave, so history stays.
 */
export const ASSIGNMENT_TARGETS = ["person", "group"] as const;
export const ASSIGNMENT_DUE_KINDS = ["date", "days"] as const;

export const assignments = sqliteTable(
  "assignments",
  {
    id: id(),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    target: text("target", { enum: ASSIGNMENT_TARGETS }).notNull(),
    /** The person, for `target = person` (their assignment goes when they do). */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** The group, for `target = group`; null once the group was deleted (its people keep their rows). */
    groupId: integer("group_id").references(() => groups.id, { onDelete: "set null" }),
    /** `date`: due on `due_date`; `days`: due `due_days` days after each person's assignment (or joining). */
    dueKind: text("due_kind", { enum: ASSIGNMENT_DUE_KINDS }).notNull(),
    /** A local day (YYYY-MM-DD) in the organization's time zone. */
    dueDate: text("due_date"),
    dueDays: integer("due_days"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps(),
  },
  (t) => [
    index("assignments_group_idx").on(t.groupId),
    index("assignments_user_idx").on(t.userId),
    index("assignments_course_idx").on(t.courseId),
    check(
      "assignments_target_check",
      sql`(${t.target} = 'person' and ${t.groupId} is null) or (${t.target} = 'group' and ${t.userId} is null)`,
    ),
    check(
      "assignments_due_check",
      sql`(${t.dueKind} = 'date' and ${t.dueDate} is not null and ${t.dueDays} is null) or (${t.dueKind} = 'days' and ${t.dueDays} between 0 and 3650 and ${t.dueDate} is null)`,
    ),
  ],
);

export const assignmentPeople = sqliteTable(
  "assignment_people",
  {
    assignmentId: integer("assignment_id")
      .notNull()
      .references(() => assignments.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** When the person was assigned: the assignment's creation, or their joining the group. */
    assignedAt: integer("assigned_at", { mode: "timestamp" }).notNull(),
    /** The local day (YYYY-MM-DD, organization's time zone) by the end of which the course is due. */
    dueOn: text("due_on").notNull(),
    /** When the course was completed (a completion before the assignment counts too); null while open. */
    completedAt: integer("completed_at", { mode: "timestamp" }),
    /** When the person left the group; their row is kept as history and no longer counts as open. */
    leftAt: integer("left_at", { mode: "timestamp" }),
    /**
     * The person's cycle of this assignment: 1, then one more each time recertification assigns the course
     * again before their completion expires (app/models/recertification.server.ts). Keys per-cycle work
     * such as reminders; the earlier cycle's completion stays in course_completion_history and certificates.
     */
    cycle: integer("cycle").notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.assignmentId, t.userId] }),
    index("assignment_people_user_idx").on(t.userId, t.dueOn),
    index("assignment_people_due_idx").on(t.assignmentId, t.dueOn),
  ],
);

export type Assignment = typeof assignments.$inferSelect;
export type AssignmentPerson = typeof assignmentPeople.$inferSelect;

/**
 * ——— Recertification (issue 34; app/models/recertification.server.ts) ———
 * Each time a person was assigned a course again because their completion was about to expire: once per
 * person, course and expiry day (the key), so the background job never re-assigns twice for one expiry,
 * however often it runs or is interrupted.
 */
export const recertifications = sqliteTable(
  "recertifications",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    courseId: integer("course_id")
      .notNull()
      .references(() => courses.id, { onDelete: "cascade" }),
    /** The expiry day (course_completions.expires_on) this re-assignment was for. */
    expiresOn: text("expires_on").notNull(),
    /** The completion cycle that was expiring. */
    cycle: integer("cycle").notNull(),
    reassignedAt: integer("reassigned_at", { mode: "timestamp" }).notNull(),
    /** The new due day given to the person's assignments: the expiry day. */
    dueOn: text("due_on").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.courseId, t.expiresOn] })],
);

export type CourseCompletion = typeof courseCompletions.$inferSelect;
export type Recertification = typeof recertifications.$inferSelect;

/* ---------- captions and transcripts (issue 35, docs/decisions/036-captions.md) ---------- */

/**
 * A video lesson's caption track: one per language, its WebVTT file (written by the server from what was
 * uploaded) a row of `files` served at the same signed address as the video.
 */
export const captionTracks = sqliteTable(
  "caption_tracks",
  {
    id: id(),
    lessonId: integer("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    fileId: integer("file_id")
      .notNull()
      .references(() => files.id, { onDelete: "cascade" }),
    /** A BCP 47 language tag (`en`, `da`, `pt-BR`). */
    language: text("language").notNull(),
    label: text("label").notNull(),
    cueCount: integer("cue_count").notNull().default(0),
    ...timestamps(),
  },
  (t) => [uniqueIndex("caption_tracks_lesson_language_unique").on(t.lessonId, t.language), index("caption_tracks_file_idx").on(t.fileId)],
);

/** A track's cues as plain text (markup stripped): the transcript, and what the search indexes. */
export const captionCues = sqliteTable(
  "caption_cues",
  {
    id: id(),
    trackId: integer("track_id")
      .notNull()
      .references(() => captionTracks.id, { onDelete: "cascade" }),
    /** The track's lesson, for the search index (a cue's hit is a place in a lesson). */
    lessonId: integer("lesson_id").notNull(),
    startMs: integer("start_ms").notNull(),
    endMs: integer("end_ms").notNull(),
    text: text("text").notNull(),
  },
  (t) => [index("caption_cues_track_start_idx").on(t.trackId, t.startMs)],
);

/** A learner's player settings, kept on the server so they follow them to every device. */
export const playerPreferences = sqliteTable(
  "player_preferences",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The caption language chosen last; `off` when captions were turned off; null: by the interface language. */
    captions: text("captions"),
    /** 0.75 to 2. */
    playbackRate: real("playback_rate").notNull().default(1),
    updatedAt: integer("updated_at", { mode: "timestamp" })
      .notNull()
      .default(sql`(unixepoch())`)
      .$onUpdate(() => new Date()),
  },
  (t) => [check("player_preferences_rate_check", sql`${t.playbackRate} between 0.5 and 2`)],
);

export type CaptionTrack = typeof captionTracks.$inferSelect;
export type CaptionCue = typeof captionCues.$inferSelect;
/*
 * ——— Compliance report (issue 34; app/models/compliance.server.ts, docs/decisions/037-compliance-report.md) ———
 * What the report counts, kept current by triggers (migration `compliance_triggers`) on every write to
 * assignment_people, assignments, group_members, lesson_progress, courses and users, whichever code makes it,
 * so the report reads a few hundred counters instead of scanning every person's assignments.
 */

/**
 * One row per person and course they are **currently assigned**: at least one of their assignment_people
 * rows of the course has no `left_at` (their own assignment, a group they are still in, or a group since
 * deleted). Rows of groups they left are history and are not counted here.
 */
export const compliancePeople = sqliteTable(
  "compliance_people",
  {
    courseId: integer("course_id").notNull(),
    userId: integer("user_id").notNull(),
    /** Every current assignment row of the course is done. */
    done: integer("done", { mode: "boolean" }).notNull(),
    /** The earliest due day (YYYY-MM-DD, organization's zone) of the open rows; when done, the latest of all. */
    dueOn: text("due_on").notNull(),
    /** The person has lesson progress in the course (the assignment model's "started"). */
    started: integer("started", { mode: "boolean" }).notNull().default(false),
    /** The latest completion among the rows, when any. */
    completedAt: integer("completed_at", { mode: "timestamp" }),
    /** The day the person's completion expires (recertification); null while completions do not expire. */
    expiresOn: text("expires_on"),
  },
  (t) => [
    primaryKey({ columns: [t.courseId, t.userId] }),
    index("compliance_people_course_idx").on(t.courseId, t.done, t.dueOn, t.userId),
    index("compliance_people_due_idx").on(t.done, t.dueOn, t.courseId, t.userId),
    index("compliance_people_user_idx").on(t.userId),
  ],
);

/**
 * compliance_people counted per group (0: everyone; otherwise the group's current members) and course, by
 * what does not change as days pass: assigned, done, and open with lesson progress (started). The report's
 * other numbers are these less the overdue ones (compliance_counts), so a report reads one row per group and
 * course plus the counters of past due days. Rows whose `assigned` reaches 0 are removed.
 */
export const complianceTotals = sqliteTable(
  "compliance_totals",
  {
    groupId: integer("group_id").notNull(),
    courseId: integer("course_id").notNull(),
    assigned: integer("assigned").notNull(),
    done: integer("done").notNull(),
    started: integer("started").notNull(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.courseId] })],
);

/**
 * compliance_people counted by what decides a state on a given day: per group (as compliance_totals), done or
 * not, the due day (open rows; '' when done), course, started (open rows) and the expiry day ('' when none).
 * In this order a group's overdue people on any day are one range of its keys (open, due before the day), and
 * the expiry index makes those expiring soon another; nothing goes stale as days pass. Rows whose count
 * reaches 0 are removed.
 */
export const complianceCounts = sqliteTable(
  "compliance_counts",
  {
    groupId: integer("group_id").notNull(),
    done: integer("done", { mode: "boolean" }).notNull(),
    dueOn: text("due_on").notNull(),
    courseId: integer("course_id").notNull(),
    started: integer("started", { mode: "boolean" }).notNull(),
    expiresOn: text("expires_on").notNull(),
    n: integer("n").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.done, t.dueOn, t.courseId, t.started, t.expiresOn] }),
    index("compliance_counts_expiry_idx").on(t.groupId, t.expiresOn, t.courseId, t.n),
  ],
);

/*
 * ——— Reminders by e-mail and weekly digests (issue 34; app/models/reminders.server.ts,
 * docs/decisions/038-reminders.md) ———
 * Every reminder a person may get is recorded here under a unique key (person, assignment, kind, the due day
 * it is for and, for overdue ones, the week of being overdue), claimed in a transaction before its mail is
 * sent: a key is never mailed twice, whatever restarts or crashes come between.
 */
export const REMINDER_KINDS = ["assigned", "before", "due", "overdue"] as const;
/**
 * sending: claimed, its mail under way (found so by a later run: the process stopped mid-send, and whether
 * it went out is unknown, so it is never sent again: `unknown`); sent; failed: the mail server refused or
 * could not be reached, tried again later while it still applies; skipped: a more timely mail said the same.
 */
export const REMINDER_STATUSES = ["sending", "sent", "failed", "skipped", "unknown"] as const;

/** The organization's reminder settings: one row, id 1 (absent: every kind on, 3 days before). */
export const reminderSettings = sqliteTable(
  "reminder_settings",
  {
    id: integer("id").primaryKey(),
    onAssignment: integer("on_assignment", { mode: "boolean" }).notNull().default(true),
    beforeDue: integer("before_due", { mode: "boolean" }).notNull().default(true),
    /** How many days before the due day the "due soon" reminder goes. */
    daysBefore: integer("days_before").notNull().default(3),
    onDueDate: integer("on_due_date", { mode: "boolean" }).notNull().default(true),
    whileOverdue: integer("while_overdue", { mode: "boolean" }).notNull().default(true),
    /** The weekly digest of overdue people for organization and group admins. */
    weeklyDigest: integer("weekly_digest", { mode: "boolean" }).notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    check("reminder_settings_single_row", sql`${t.id} = 1`),
    check("reminder_settings_days_before", sql`${t.daysBefore} between 1 and 30`),
  ],
);

export const reminders = sqliteTable(
  "reminders",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * No foreign key: a reminder stays on record when its assignment is deleted (what was sent, and when),
     * and an index on this column, which a cascade would need, cost a run a fifth of its time (the
     * bench's 10,000 learners; docs/decisions/038-reminders.md). Assignment ids are never reused.
     */
    assignmentId: integer("assignment_id").notNull(),
    kind: text("kind", { enum: REMINDER_KINDS }).notNull(),
    /** The due day (YYYY-MM-DD) the reminder is for: a new due day (re-assigned) is a new cycle. */
    dueOn: text("due_on").notNull(),
    /** For `overdue`: the week of being overdue (1 from the day after the due day); 0 otherwise. */
    week: integer("week").notNull().default(0),
    status: text("status", { enum: REMINDER_STATUSES }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** A failed one is tried again from then. */
    retryAt: integer("retry_at", { mode: "timestamp" }),
    claimedAt: integer("claimed_at", { mode: "timestamp" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp" }),
  },
  (t) => [
    // Person first: a person's claims of one run sit on one page (each claim is a commit of its own), and
    // deleting a person (the cascade above) finds theirs by it.
    uniqueIndex("reminders_key_unique").on(t.userId, t.assignmentId, t.kind, t.dueOn, t.week),
    // Only claims under way: a run looks for those left by a crash (a full index would change on every send).
    index("reminders_sending_idx")
      .on(t.status)
      .where(sql`status = 'sending'`),
  ],
);

/** The weekly digest of overdue people, one per admin and ISO week (the organization's), same claims. */
export const reminderDigests = sqliteTable(
  "reminder_digests",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `2026-W48`, in the organization's time zone. */
    week: text("week").notNull(),
    status: text("status", { enum: [...REMINDER_STATUSES, "empty"] as const }).notNull(),
    /** How many overdue people (and courses) it listed. */
    overdue: integer("overdue").notNull().default(0),
    attempts: integer("attempts").notNull().default(0),
    retryAt: integer("retry_at", { mode: "timestamp" }),
    claimedAt: integer("claimed_at", { mode: "timestamp" }).notNull(),
    sentAt: integer("sent_at", { mode: "timestamp" }),
  },
  (t) => [
    uniqueIndex("reminder_digests_user_week_unique").on(t.userId, t.week),
    index("reminder_digests_sending_idx")
      .on(t.status)
      .where(sql`status = 'sending'`),
  ],
);

/** People who turned reminders and digests off (one click in a reminder, or their profile settings). */
export const reminderOptOuts = sqliteTable("reminder_opt_outs", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  at: integer("at", { mode: "timestamp" }).notNull(),
});

export type ReminderSettings = typeof reminderSettings.$inferSelect;
export type Reminder = typeof reminders.$inferSelect;

// The audit of what admins did lives in its own module; it is part of the tenant schema all the same.
export * from "./tenant-audit";
