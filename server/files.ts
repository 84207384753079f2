import type { NextFunction, Request, Response } from "express";
import { eq } from "drizzle-orm";
import type { TenantDb } from "../db/open";
import type { Organization } from "../db/platform";
import { files } from "../db/tenant";
import { isDownloadStart, recordFileServed } from "../app/models/analytics.server";
import { fileOnDisk } from "../app/models/file.server";
import type { Platform } from "./platform";
import { sendStatusPage } from "./status-page";

/**
 * Serves a stored file behind a signed, expiring address (`/files/<id>/<expires>/<signature>/<name>`,
 * made by Platform.signFileUrl): ranges for video, always as an attachment with nosniff and a sandboxing
 * CSP, so nothing uploaded ever runs as a page of the app's origin.
 */
export function serveFiles(platform: Platform) {
  return (req: Request, res: Response, next: NextFunction) => {
    const match = /^\/files\/(\d+)\/(\d+)\/([A-Za-z0-9_-]{43})\/[^/]+$/.exec(req.path);
    if (!match) return next();
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const tenant = res.locals.tenant as { organization: Organization | null; db: TenantDb | null };
    if (!tenant.organization || !tenant.db) return sendStatusPage(req, res, 404);
    const [, id, expires, signature] = match;
    if (!platform.verifyFileSignature(tenant.organization.id, Number(id), Number(expires), signature)) {
      return sendStatusPage(req, res, 404);
    }
    const file = tenant.db
      .select()
      .from(files)
      .where(eq(files.id, Number(id)))
      .get();
    if (!file) return sendStatusPage(req, res, 404);
    if (isDownloadStart(req.method, req.headers.range)) recordFileServed(tenant.db, { fileId: file.id });
    const ascii = file.name.replace(/[^\x20-\x7e]/g, "_");
    res.setHeader("Content-Disposition", `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Content-Security-Policy", "default-src 'none'; sandbox");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    const maxAge = Math.max(0, Number(expires) - Math.floor(Date.now() / 1000));
    res.sendFile(
      fileOnDisk(platform.dataDir, tenant.organization.id, file),
      { headers: { "Content-Type": file.mime, "Cache-Control": `private, max-age=${maxAge}` }, acceptRanges: true, dotfiles: "allow" },
      (error) => {
        if (error && !res.headersSent) sendStatusPage(req, res, 404);
      },
    );
  };
}
