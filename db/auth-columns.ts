import { integer, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "./columns";

/**
 * The columns of people, sessions, reset tokens and login failures. Organization users (tenant database)
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

export const loginFailureColumns = () => ({
  id: id(),
  email: text("email").notNull(),
  ip: text("ip").notNull().default(""),
  createdAt: integer("created_at", { mode: "timestamp" }).notNull(),
});
