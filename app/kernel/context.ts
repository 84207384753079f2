import type { Organization } from "../../db/platform";
import type { TenantDb } from "../../db/open";
import type { Platform } from "../../server/platform";
import type { Theme } from "../utils/theme";
import type { Viewer } from "../access/viewer";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The organization of the request's host; null on the platform host. */
    organization: Organization | null;
    /** That organization's database; null on the platform host. */
    db: TenantDb | null;
    platform: Platform;
    cspNonce: string;
    requestId: string;
    /** The client's address (Express's req.ip: the socket's, or X-Forwarded-For behind a trusted proxy). */
    clientIp: string;
    /**
     * Who is asking, built once per request before the app runs (app/kernel/viewer.server.ts `identify`):
     * the organization, its database, the person, their role, capabilities, groups and language.
     */
    viewer: Viewer;
    theme?: Theme;
    /** Set when a loader or action met the tenant file locked by another process (server/tenant-lock.ts). */
    tenantBusy?: boolean;
  }
}

export {};
