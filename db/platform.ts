import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { loginThrottleColumns, personColumns, resetTokenColumns, sessionColumns } from "./auth-columns";
import { id, timestamps } from "./columns";

/**
 * The platform registry (`<DATA_DIR>/platform.sqlite`): which organizations exist and how their hosts
 * map to them. Everything else of an organization lives in its own tenant database (db/tenant.ts).
 */
export const organizations = sqliteTable(
  "organizations",
  {
    id: id(),
    name: text("name").notNull(),
    /** A full host name the organization owns on the platform, e.g. `learn.acme.com`. */
    domain: text("domain"),
    /** `<urlPrefix>.<PLATFORM_DOMAIN>` reaches the organization. */
    urlPrefix: text("url_prefix"),
    /** A host name outside the platform pointed at it by the organization. */
    customDomain: text("custom_domain"),
    language: text("language").notNull().default("en"),
    favicon: text("favicon"),
    logo: text("logo"),
    loginBackground: text("login_background"),
    footer: text("footer"),
    featuredCourse: integer("featured_course"),
    /** An address that receives a blind copy of every mail the organization sends. */
    bcc: text("bcc"),
    /** Whether people of this organization must enter an e-mailed code after their password. */
    twoFactorRequired: integer("two_factor_required", { mode: "boolean" }).notNull().default(false),
    /** IANA time zone for analytics days, ISO weeks and months (issue 15); Danish by default like dates. */
    timeZone: text("time_zone").notNull().default("Europe/Copenhagen"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("organizations_domain_unique").on(t.domain),
    uniqueIndex("organizations_url_prefix_unique").on(t.urlPrefix),
    uniqueIndex("organizations_custom_domain_unique").on(t.customDomain),
    check("organizations_language_check", sql`${t.language} in ('en','pl','da','no','sv')`),
  ],
);

export type Organization = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;

/** Super-admins run the whole platform; they sign in on the platform host. */
export const superAdmins = sqliteTable("super_admins", personColumns(), (t) => [uniqueIndex("super_admins_email_unique").on(t.email)]);

export const platformSessions = sqliteTable(
  "platform_sessions",
  {
    ...sessionColumns(),
    userId: integer("user_id")
      .notNull()
      .references(() => superAdmins.id, { onDelete: "cascade" }),
  },
  (t) => [uniqueIndex("platform_sessions_token_hash_unique").on(t.tokenHash)],
);

export const platformPasswordResets = sqliteTable(
  "platform_password_resets",
  {
    ...resetTokenColumns(),
    userId: integer("user_id")
      .notNull()
      .references(() => superAdmins.id, { onDelete: "cascade" }),
  },
  // The super-admin's recent tokens are counted before each requested mail (app/models/auth/tokens.server.ts).
  (t) => [
    uniqueIndex("platform_password_resets_token_hash_unique").on(t.tokenHash),
    index("platform_password_resets_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/** Failed sign-ins of super-admins, per account and client (db/auth-columns.ts). */
export const platformLoginThrottle = sqliteTable(
  "platform_login_throttle",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => superAdmins.id, { onDelete: "cascade" }),
    ...loginThrottleColumns(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.client] }), index("platform_login_throttle_last_failure_idx").on(t.lastFailureAt)],
);

export type SuperAdmin = typeof superAdmins.$inferSelect;

/*
 * ——— What the platform keeps of each organization's people and courses (issue 31) ———
 * The super-admin's overview and user list read these instead of opening every organization's database
 * on each request. The tenant databases note each change to a person or to the number of courses in
 * `summary_changes` (by triggers, tenant migration 0020), and the server carries those over here as the
 * use of the database that made them ends (server/tenant-summaries.ts). A missing summary row means "not
 * gathered yet": it is gathered from the tenant database in full at start, by `npm run db:migrate` and
 * by `npm run restore` (app/models/tenant-summary.server.ts).
 */
export const organizationSummaries = sqliteTable("organization_summaries", {
  organizationId: integer("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  users: integer("users").notNull(),
  courses: integer("courses").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp" }).notNull().default(sql`(unixepoch())`),
});

/** Each organization's people as /admin/users lists them: a copy, the tenant database is the truth. */
export const platformPeople = sqliteTable(
  "platform_people",
  {
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    /** The person's id in the organization's database (`/admin/users/<organization id>-<user id>`). */
    userId: integer("user_id").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    role: text("role"),
    disabled: integer("disabled", { mode: "boolean" }).notNull(),
  },
  // The list's order: organization, then name (as the organization's own user list sorts).
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index("platform_people_order_idx").on(t.organizationId, t.lastName, t.firstName, t.userId),
  ],
);
