import type { PlatformDb } from "../db/open";
import type { Organization } from "../db/platform";
import type { TenantPool } from "../db/tenant-pool";
import type { OrganizationDirectory } from "./directory";
import type { Mailer } from "./mailer";
import type { PdfRenderer } from "./pdf-renderer";
import type { Logger } from "./logger";

/**
 * What the models, the job runner and its jobs use of the server's Platform (server/platform.ts), each
 * named by its user. They depend on these shapes rather than on the class: Platform makes the job runner
 * (server/jobs.ts), which runs those models, so importing Platform from them, even as a type, closes an
 * import cycle (issue 31; tests/unit/import-graph.test.ts). Platform implements every one of them.
 *
 * Only types are imported here, and only from modules that import neither server/platform.ts nor
 * server/jobs.ts: keep it so.
 */

/** Sign-in and invitation mails (app/models/auth/mail.server.ts): the mailer and the stored origin for links. */
export interface MailServices {
  readonly mailer: Mailer;
  /** Where a mail that failed is told (the server's log, server/logger.ts). */
  readonly log: Logger;
  /** The origin people reach an organization on (the platform's for null), never taken from a request. */
  originFor(organization: Organization | null): string;
}

/** The users.import job (app/models/user-import.server.ts): finds the organization, then mails invitations. */
export interface UserImportServices extends MailServices {
  readonly db: PlatformDb;
}

/** Creating an organization and inviting its first admin (app/models/provision.server.ts). */
export interface ProvisionServices extends MailServices {
  readonly db: PlatformDb;
  readonly dataDir: string;
  readonly platformDomain: string;
  readonly organizations: OrganizationDirectory;
  readonly tenants: TenantPool;
}

/** The certificate.render job (server/certificates.ts): the organization, its files and the sandboxed renderer. */
export interface CertificateServices {
  readonly db: PlatformDb;
  readonly dataDir: string;
  readonly renderer: PdfRenderer;
  originFor(organization: Organization | null): string;
}

/**
 * Reminders and digests (app/models/reminders.server.ts): the organization, the mailer and its links, and the
 * signer of one-click unsubscribe tokens (Platform.signValue).
 */
export interface ReminderServices extends MailServices {
  readonly db: PlatformDb;
  signValue(purpose: string, value: string): string;
  verifyValue(purpose: string, value: string, signature: string): boolean;
}

/**
 * The job runner (server/jobs.ts): the organizations and their databases, and whatever its jobs need,
 * since it hands these services on to each job.
 */
export interface JobServices extends CertificateServices, UserImportServices, ReminderServices {
  readonly db: PlatformDb;
  readonly dataDir: string;
  readonly tenants: TenantPool;
}
