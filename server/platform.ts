import fs from "node:fs";
import path from "node:path";
import { openPlatformDatabase, type PlatformDb } from "../db/open";
import { TenantPool } from "../db/tenant-pool";
import type { Config } from "./config";
import { OrganizationDirectory } from "./directory";
import { Mailer } from "./mailer";
import { organizationHost, type Organization } from "../app/models/organization.server";

/**
 * Everything the server holds open for its lifetime, handed to loaders and actions through the load
 * context. There is no module-level database: tests and scripts build their own Platform.
 */
export class Platform {
  readonly db: PlatformDb;
  readonly tenants: TenantPool;
  readonly organizations: OrganizationDirectory;
  readonly mailer: Mailer;
  /** The port the server listens on, once it does; links in mails use it unless PUBLIC_PORT is set. */
  listeningPort: number | null = null;

  constructor(readonly config: Config) {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    this.db = openPlatformDatabase(config.DATA_DIR);
    this.tenants = new TenantPool(config.DATA_DIR, config.TENANT_POOL_SIZE);
    this.organizations = new OrganizationDirectory(this.db, config.PLATFORM_DOMAIN);
    this.mailer = new Mailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: this.outboxDir() });
  }

  /**
   * The origin people reach an organization on (or the platform, for null), built from what is stored,
   * never from a request's Host header: links in mails must not be steerable by the requester.
   */
  originFor(organization: Organization | null) {
    const host = organization ? organizationHost(organization, this.platformDomain) : this.platformDomain;
    const scheme = this.config.PUBLIC_SCHEME;
    const port = this.config.PUBLIC_PORT ?? this.listeningPort;
    const defaultPort = scheme === "https" ? 443 : 80;
    return `${scheme}://${host ?? this.platformDomain}${port && port !== defaultPort ? `:${port}` : ""}`;
  }

  get dataDir() {
    return this.config.DATA_DIR;
  }

  get platformDomain() {
    return this.config.PLATFORM_DOMAIN;
  }

  outboxDir() {
    return path.join(this.config.DATA_DIR, "outbox");
  }

  close() {
    this.tenants.closeAll();
    this.db.$client.close();
  }
}
