import { sql } from "drizzle-orm";
import { integer } from "drizzle-orm/sqlite-core";

/** Shared column helpers: every table has an integer id and second-precision timestamps. */
export const id = () => integer("id").primaryKey({ autoIncrement: true });

export const timestamps = () => ({
  createdAt: integer("created_at", { mode: "timestamp" }).notNull().default(sql`(unixepoch())`),
  updatedAt: integer("updated_at", { mode: "timestamp" })
    .notNull()
    .default(sql`(unixepoch())`)
    .$onUpdate(() => new Date()),
});
