import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { groups } from "./groups";
import { jobs } from "./jobs";
import { users } from "./people";

/* CSV imports of people (issue 14, docs/decisions/017-groups-and-import.md). */

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

export type UserImport = typeof userImports.$inferSelect;
