import fs from "node:fs";
import path from "node:path";
import { openPlatformDatabase, type PlatformDb } from "../db/open";
import { TenantPool } from "../db/tenant-pool";
import type { Config } from "./config";
import { OrganizationDirectory } from "./directory";

/**
 * Everything the server holds open for its lifetime, handed to loaders and actions through the load
 * context. There is no module-level database: tests and scripts build their own Platform.
 */
export class Platform {
  readonly db: PlatformDb;
  readonly tenants: TenantPool;
  readonly organizations: OrganizationDirectory;

  constructor(readonly config: Config) {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    this.db = openPlatformDatabase(config.DATA_DIR);
    this.tenants = new TenantPool(config.DATA_DIR, config.TENANT_POOL_SIZE);
    this.organizations = new OrganizationDirectory(this.db, config.PLATFORM_DOMAIN);
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
