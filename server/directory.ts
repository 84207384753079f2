import type { PlatformDb } from "../db/open";
import { findOrganizationByHost, normalizeHost, type Organization } from "../app/models/organization.server";

/**
 * Host → organization, cached in memory (docs/decisions/002-tenancy.md). The cache is dropped when this
 * process changes an organization (`invalidate`) and when another process (a CLI script) commits to the
 * platform database, which SQLite reports through `PRAGMA data_version`.
 */
export class OrganizationDirectory {
  readonly #byHost = new Map<string, Organization>();
  #dataVersion = -1;
  /** Prepared once: `pragma()` would prepare the statement again on every request. */
  readonly #dataVersionStatement;
  static readonly MAX_CACHED = 10_000;

  constructor(
    readonly db: PlatformDb,
    readonly platformDomain: string,
  ) {
    this.#dataVersionStatement = db.$client.prepare("pragma data_version").pluck();
  }

  resolve(rawHost: string | undefined): { host: string | null; organization: Organization | null } {
    this.#dropIfChangedElsewhere();
    return this.lookup(rawHost);
  }

  /**
   * As `resolve`, without asking SQLite whether another process changed the registry: for a second host
   * within a request whose own host was resolved a moment before (`/api/resolve?domain=`), where the
   * registry is as current as that. Asking costs a read lock on the platform database each time.
   */
  lookup(rawHost: string | undefined): { host: string | null; organization: Organization | null } {
    const host = normalizeHost(rawHost);
    if (!host) return { host: null, organization: null };
    const cached = this.#byHost.get(host);
    if (cached) return { host, organization: cached };
    const organization = findOrganizationByHost(this.db, host, this.platformDomain) ?? null;
    // Only hits are cached: misses would let anyone fill memory with made-up host names.
    if (organization) {
      if (this.#byHost.size >= OrganizationDirectory.MAX_CACHED) this.#byHost.clear();
      this.#byHost.set(host, organization);
    }
    return { host, organization };
  }

  isPlatformHost(host: string | null) {
    return host === this.platformDomain;
  }

  invalidate() {
    this.#byHost.clear();
  }

  #dropIfChangedElsewhere() {
    const version = this.#dataVersionStatement.pluck(true).get() as number;
    if (version !== this.#dataVersion) {
      this.#dataVersion = version;
      this.#byHost.clear();
    }
  }
}
