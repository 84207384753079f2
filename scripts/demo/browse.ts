import { eq } from "drizzle-orm";
import { storeGeneratedFile } from "../../app/models/file.server";
import type { TenantConn } from "../../db/open";
import { carousels, categories, groups } from "../../db/tenant";
import { coverArt } from "./media";

/**
 * Covers for the learner's browsing pages (issue 18): every category, carousel and group of a demo
 * organization gets its own cover art from the file library, so /categories, /carousels and /groups
 * show images. Deterministic: the art is picked by the kind and the name. (The demo learner starts with
 * nothing begun, so the first sign-in shows /welcome; "continue watching" fills as they watch.)
 */
export async function seedBrowseDemo(target: { db: TenantConn; dataDir: string; organizationId: number }) {
  const { db } = target;
  const rows = [
    ...db
      .select()
      .from(categories)
      .all()
      .map((c) => ({ table: categories, id: c.id, name: `category:${c.name}` })),
    ...db
      .select()
      .from(carousels)
      .all()
      .map((c) => ({ table: carousels, id: c.id, name: `carousel:${c.title}` })),
    ...db
      .select()
      .from(groups)
      .all()
      .map((g) => ({ table: groups, id: g.id, name: `group:${g.name}` })),
  ];
  const art = new Map<string, Buffer>();
  for (const row of rows) art.set(row.name, await coverArt(row.name));
  db.transaction((tx) => {
    for (const row of rows) {
      const file = storeGeneratedFile(tx, target, {
        name: `${row.name.replace(/[^\p{L}\p{N}]+/gu, "-").toLowerCase()}-cover.webp`,
        data: art.get(row.name)!,
      });
      tx.update(row.table).set({ coverFileId: file.id }).where(eq(row.table.id, row.id)).run();
    }
  });
}
