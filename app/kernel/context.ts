import type { Organization } from "../../db/platform";
import type { TenantDb } from "../../db/open";
import type { Platform } from "../../server/platform";
import type { Language } from "../utils/i18n";
import type { Theme } from "../utils/theme";
import type { Auth } from "./auth.server";

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
    /** Per-request memo of who is asking (utils/auth.server.ts getAuth); undefined until looked up. */
    auth?: Auth | null;
    /** Per-request memo of the detected interface language (see utils/preferences.server.ts). */
    language?: Language;
    theme?: Theme;
    /** Set when a loader or action met the tenant file locked by another process (server/tenant-lock.ts). */
    tenantBusy?: boolean;
  }
}

export {};
