import type { Request, Response } from "express";
import type { TenantDb } from "../db/open";
import type { Organization } from "../db/platform";
import type { Viewer } from "../app/access/viewer";
import { identify } from "../app/kernel/viewer.server";
import type { Platform } from "./platform";
import { clientAddress } from "./client-address";

/**
 * The request's viewer (app/access/viewer.ts), identified once and kept on the response: server/body-limits.ts
 * needs it before the body is read, the load context (server/app.ts) for the app, the log line for who asked.
 */
export async function viewerOf(req: Request, res: Response, platform: Platform): Promise<Viewer> {
  if (res.locals.viewer) return res.locals.viewer as Viewer;
  const tenant = res.locals.tenant as { organization: Organization | null; db: TenantDb | null };
  // Only the headers that carry credentials and language are read; no web Request is made for it.
  const headers = {
    get: (name: string) => {
      const value = req.headers[name.toLowerCase()];
      return typeof value === "string" ? value : null;
    },
  };
  const viewer = await identify(
    { headers },
    { organization: tenant.organization, db: tenant.db, platformDb: platform.db, superAdminTwoFactor: platform.config.SUPER_ADMIN_2FA },
  );
  // From where the request came: the audit of what admins did records it (issue 50).
  const located = { ...viewer, address: clientAddress(req) };
  res.locals.viewer = located;
  return located;
}
