import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";

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

export type Job = typeof jobs.$inferSelect;
