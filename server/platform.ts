import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Checkpointer } from "../db/checkpointer";
import { openTenantDatabase, openPlatformDatabase, type OpenOptions, type PlatformDb } from "../db/open";
import { defaultPoolSize, TenantPool } from "../db/tenant-pool";
import type { ImageBucket } from "../app/utils/images";
import type { Config } from "./config";
import { OrganizationDirectory } from "./directory";
import { JobRunner } from "./jobs";
import { logger, type Logger } from "./logger";
import { Mailer } from "./mailer";
import { PdfRenderer } from "./pdf-renderer";
import type { CertificateServices, JobServices, MailServices, ProvisionServices, UserImportServices } from "./services";
import { TenantSummaries } from "./tenant-summaries";
import { organizationHost, type Organization } from "../app/models/organization.server";
import { makeSecretBox, type SecretBox } from "../app/models/sso/seal.server";

/**
 * Everything the server holds open for its lifetime, handed to loaders and actions through the load
 * context. There is no module-level database: tests and scripts build their own Platform.
 */
export class Platform implements MailServices, UserImportServices, ProvisionServices, CertificateServices, JobServices {
  readonly db: PlatformDb;
  readonly tenants: TenantPool;
  readonly checkpointer: Checkpointer;
  /** The platform's copy of each organization's people and counts (/admin, /admin/users). */
  readonly summaries: TenantSummaries;
  readonly organizations: OrganizationDirectory;
  readonly mailer: Mailer;
  readonly jobs: JobRunner;
  /** Certificates' sandboxed Chromium (at most CERTIFICATE_RENDERERS at a time). */
  readonly renderer: PdfRenderer;
  /** The server's log (server/logger.ts): the app writes its lines through it, at LOG_LEVEL, redacted as the server's are. */
  readonly log: Logger = logger;
  readonly #secret: Buffer;
  /** Seals secrets kept at rest (SSO client secrets) with a key derived from the server's key. */
  readonly secrets: SecretBox;
  /** The port the server listens on, once it does; links in mails use it unless PUBLIC_PORT is set. */
  listeningPort: number | null = null;

  /**
   * `tenantOpen.busyTimeoutMs`: how long the tenant handles let SQLite wait for another process's lock.
   * The server passes 0 (it waits on timers: db/write-lock.ts); scripts keep SQLite's default wait.
   */
  constructor(
    readonly config: Config,
    { tenantOpen = {} }: { tenantOpen?: OpenOptions } = {},
  ) {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    this.db = openPlatformDatabase(config.DATA_DIR);
    // Checkpoints of the organizations' logs are made in a thread of their own (db/checkpointer.ts).
    this.checkpointer = new Checkpointer({ onError: (error, file) => logger.error({ error, file }, "checkpoint") });
    this.tenants = new TenantPool(
      config.DATA_DIR,
      config.TENANT_POOL_SIZE ?? defaultPoolSize({ budgetMiB: config.TENANT_POOL_MB }),
      (file) => {
        const db = openTenantDatabase(file, tenantOpen);
        this.checkpointer.adopt(db.$client);
        return db;
      },
      {
        afterUse: (db) => this.checkpointer.used(db.$client),
        // The platform's copy of the organization's people and counts follows each use's changes.
        settle: (organizationId, db) => this.summaries.settle(organizationId, db),
      },
    );
    this.summaries = new TenantSummaries(this.db, this.tenants);
    this.organizations = new OrganizationDirectory(this.db, config.PLATFORM_DOMAIN);
    this.mailer = new Mailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, outboxDir: this.outboxDir() });
    this.jobs = new JobRunner(this, config.JOB_STEP_DELAY_MS);
    this.renderer = new PdfRenderer({
      executablePath: config.CHROME_PATH,
      concurrency: config.CERTIFICATE_RENDERERS,
      maxQueue: config.CERTIFICATE_RENDER_QUEUE,
      timeoutMs: config.CERTIFICATE_RENDER_TIMEOUT_MS,
      // Beside the data: a Chromium still writing its profile as the server stops leaves nothing elsewhere.
      profileRoot: path.join(config.DATA_DIR, "tmp", "render"),
    });
    this.#secret = config.SECRET_KEY ? Buffer.from(config.SECRET_KEY) : loadOrCreateSecret(path.join(config.DATA_DIR, "secret.key"));
    this.secrets = makeSecretBox(this.#secret);
  }

  /**
   * A signed, expiring address for one organization's file (docs/architecture.md "Data": downloads use signed,
   * expiring URLs). Expiry is rounded up to `granularity` seconds so that pages rendered within that
   * window share one address and browsers can cache it.
   */
  signFileUrl(organizationId: number, file: { id: number; name: string }, ttlSeconds: number, granularity = 1) {
    const now = Math.floor(Date.now() / 1000);
    const expires = Math.ceil((now + ttlSeconds) / granularity) * granularity;
    const signature = this.#sign(organizationId, file.id, expires);
    return { url: `/files/${file.id}/${expires}/${signature}/${encodeURIComponent(file.name)}`, expires };
  }

  verifyFileSignature(organizationId: number, fileId: number, expires: number, signature: string) {
    if (!Number.isSafeInteger(expires) || expires < Math.floor(Date.now() / 1000)) return false;
    const expected = Buffer.from(this.#sign(organizationId, fileId, expires));
    const given = Buffer.from(signature);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }

  /**
   * The address of a branding image: a stored file (`file:<id>`) gets a signed address valid for a week,
   * the same for a whole day so pages and browsers can cache it; anything else is returned as it is.
   */
  brandingUrl(organization: Organization, value: string | null, { absolute = false } = {}) {
    const match = value ? /^file:(\d+)$/.exec(value) : null;
    if (!match) return value;
    const { url } = this.signFileUrl(organization.id, { id: Number(match[1]), name: "image" }, 7 * 86_400, 86_400);
    return absolute ? `${this.originFor(organization)}${url}` : url;
  }

  /**
   * The image provider's address of a stored image in a bucket (server/images.ts), without `?w=`: it does
   * not expire, so browsers and proxies may cache it for good; deleting the file ends it.
   */
  imageUrl(organizationId: number, fileId: number, bucket: ImageBucket) {
    return `/images/${bucket}/${fileId}/${this.#signImage(organizationId, fileId, bucket)}`;
  }

  verifyImageSignature(organizationId: number, fileId: number, bucket: ImageBucket, signature: string) {
    const expected = Buffer.from(this.#signImage(organizationId, fileId, bucket));
    const given = Buffer.from(signature);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }

  #signImage(organizationId: number, fileId: number, bucket: ImageBucket) {
    return crypto.createHmac("sha256", this.#secret).update(`image:${organizationId}:${fileId}:${bucket}`).digest("base64url");
  }

  /** An HMAC of `value` for one purpose (never "file" or "image", which the signers above use), base64url. */
  signValue(purpose: string, value: string) {
    if (purpose === "file" || purpose === "image") throw new Error("reserved purpose");
    return crypto.createHmac("sha256", this.#secret).update(`${purpose}:${value}`).digest("base64url");
  }

  verifyValue(purpose: string, value: string, signature: string) {
    const expected = Buffer.from(this.signValue(purpose, value));
    const given = Buffer.from(signature);
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }

  #sign(organizationId: number, fileId: number, expires: number) {
    return crypto.createHmac("sha256", this.#secret).update(`file:${organizationId}:${fileId}:${expires}`).digest("base64url");
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

  /** The host under which each organization's SCORM content is served (`<id>.<this>`). */
  get scormDomain() {
    return this.config.SCORM_DOMAIN ?? `scorm.${this.config.PLATFORM_DOMAIN}`;
  }

  /** The origin of an organization's SCORM content: never the app's own, so content cannot reach its cookies. */
  scormOrigin(organizationId: number) {
    const scheme = this.config.PUBLIC_SCHEME;
    const port = this.config.PUBLIC_PORT ?? this.listeningPort;
    const defaultPort = scheme === "https" ? 443 : 80;
    return `${scheme}://${organizationId}.${this.scormDomain}${port && port !== defaultPort ? `:${port}` : ""}`;
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
    this.checkpointer.close();
    this.summaries.close();
    this.tenants.closeAll();
    this.db.$client.close();
  }
}

/** A random key made on first start and kept beside the data (mode 0600), so links survive restarts. */
function loadOrCreateSecret(file: string): Buffer {
  try {
    const key = fs.readFileSync(file);
    if (key.length < 32) throw new Error(`${file} holds fewer than 32 bytes: not a usable key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    const key = crypto.randomBytes(32);
    const temporary = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
    fs.writeFileSync(temporary, key, { mode: 0o600, flag: "wx" });
    try {
      fs.linkSync(temporary, file); // fails if another process made the key first: then use theirs
    } catch {
      // another process won the race
    } finally {
      fs.rmSync(temporary, { force: true });
    }
    return fs.readFileSync(file);
  }
}
