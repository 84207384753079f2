import { eq } from "drizzle-orm";
import type { TenantConn } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { contentVersion } from "../../db/tenant";

/**
 * The tenant's content version: moved by triggers on every change to courses, lessons, files, categories,
 * carousels and their courses (migration 0018). What is worked out from those tables alone may be kept
 * while it is unchanged (db/content-cache.ts `cachedByVersion`).
 */
export function contentVersionOf(db: TenantConn) {
  return String(
    preparedOnce(db, "content.version", () =>
      db.select({ version: contentVersion.version }).from(contentVersion).where(eq(contentVersion.id, 1)).prepare(),
    ).get()?.version ?? 0,
  );
}
