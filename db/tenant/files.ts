import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id, timestamps } from "../columns";
import { FILE_KINDS } from "../vocabulary";
import { users } from "./people";

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
