import { integer, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

/**
 * The columns of people, sessions, reset tokens and failed sign-ins. Organization users (tenant database)
 * and super-admins (platform database) share them, so one auth model serves both (db/auth-realm.ts).
 */
export const personColumns = () => ({
  id: id(),
  /** Stored lower-case; unique within its database. */
  email: text("email").notNull(),
  firstName: text("first_name").notNull().default(""),
  lastName: text("last_name").notNull().default(""),
  phone: text("phone"),
  /** argon2id; null for accounts that sign in through an external platform only. */
  passwordHash: text("password_hash"),
  language: text("language"),
  /** Managed by an external platform (SSO, HR sync): the person cannot edit their own details. */
  managedExternally: integer("managed_externally", { mode: "boolean" }).notNull().default(false),
  disabledAt: integer("disabled_at", { mode: "timestamp" }),
  ...timestamps(),
});

export const SESSION_KINDS = ["web", "api"] as const;

/** One row per signed-in device: a browser (cookie) or an app or script (Bearer token). */
export const sessionColumns = () => ({
  id: id(),
  /** SHA-256 of the random token; the token itself is never stored. */
  tokenHash: text("token_hash").notNull(),
  kind: text("kind", { enum: SESSION_KINDS }).notNull(),
  userAgent: text("user_agent").notNull().default(""),
  ip: text("ip").notNull().default(""),
  createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
  lastSeenAt: integer("last_seen_at", { mode: "timestamp" }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
  /** Set while the password step is done and the e-mailed code is not. */
  twoFactorPending: integer("two_factor_pending", { mode: "boolean" }).notNull().default(false),
  /** The current code's HOTP secret (otpauth); null when no code is outstanding. */
  twoFactorSecret: text("two_factor_secret"),
  twoFactorIssuedAt: integer("two_factor_issued_at", { mode: "timestamp" }),
  twoFactorAttempts: integer("two_factor_attempts").notNull().default(0),
  twoFactorSends: integer("two_factor_sends").notNull().default(0),
});

export const resetTokenColumns = () => ({
  id: id(),
  tokenHash: text("token_hash").notNull(),
  createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
  expiresAt: integer("expires_at", { mode: "timestamp" }).notNull(),
  usedAt: integer("used_at", { mode: "timestamp" }),
});

/**
 * Failed sign-ins, counted (app/models/auth/throttle.server.ts, docs/decisions/007-authentication.md "Guessing
 * passwords"): one row per account and client (an address, or a known device) that failed lately, and one
 * per account as a whole (client ''). Each attempt reads the two rows by their primary key. The person's
 * id column, with its foreign key, is added by each table.
 */
export const loginThrottleColumns = () => ({
  /** '' for the account as a whole; `ip:<address or IPv6 /56>` or `device:<known device>` for one client. */
  client: text("client").notNull(),
  /** Failures in the row's run: the account's hour window, or the client's run since its last quiet day. */
  failures: integer("failures").notNull(),
  windowStart: integer("window_start", { mode: "timestamp" }).notNull(),
  lastFailureAt: integer("last_failure_at", { mode: "timestamp" }).notNull(),
  /** A client's next guess is not checked before this time (the growing delay). */
  waitUntil: integer("wait_until", { mode: "timestamp" }),
  /** The account's: when its owner was told by mail that the ceiling was reached (once per window). */
  alertedAt: integer("alerted_at", { mode: "timestamp" }),
});
