import path from "node:path";
import { z } from "zod";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./tenants"),
  PLATFORM_DOMAIN: z
    .string()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+$/, "PLATFORM_DOMAIN must be a host name without port or scheme")
    .default("localhost"),
  TRUST_PROXY: flag,
  /** How many proxies stand in front of the server when TRUST_PROXY is set (X-Forwarded-For hops). */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  /** Open tenant databases kept at once; by default sized from the file limit and memory (db/tenant-pool.ts). */
  TENANT_POOL_SIZE: z.coerce.number().int().min(1).optional(),
  /** Without TENANT_POOL_SIZE: the memory the open tenant databases may use at most, in MiB (db/tenant-pool.ts). */
  TENANT_POOL_MB: z.coerce.number().int().min(16).max(1_048_576).optional(),
  LOG_REQUESTS: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  /** The least severe log lines written (pino levels); `silent` writes none. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  NODE_ENV: z.string().default("production"),
  /** Mail goes through this SMTP server (smtp://user:pass@host:port); without it, to <DATA_DIR>/outbox. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default("Lectern <no-reply@lectern.local>"),
  /** How links in mails start: the scheme, and a port when the public one is not the listening one. */
  PUBLIC_SCHEME: z.enum(["http", "https"]).default("http"),
  PUBLIC_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Requests a minute per address: auth posts, and other non-GET requests. */
  RATE_LIMIT_AUTH: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_MUTATIONS: z.coerce.number().int().min(1).default(100),
  /** Upload limits in bytes: any file, and images (which are also re-encoded). */
  FILE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024 * 1024),
  IMAGE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(5 * 1024 * 1024),
  /**
   * How often each organization's reminders job is queued, in minutes (issue 34: server/reminders.ts);
   * 0 turns reminders and digests off on this server.
   */
  REMINDERS_EVERY_MINUTES: z.coerce.number().int().min(0).max(1440).default(15),
  /** A pause between the steps of background jobs, in ms (0 in production; tests slow jobs down with it). */
  JOB_STEP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  /** How long a signed download address works, in seconds. */
  DOWNLOAD_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(900),
  /**
   * Signs download links and seals SSO client secrets at rest; without it a random key is made once and
   * kept in <DATA_DIR>/secret.key. Changing it voids stored SSO secrets (they must be entered again).
   */
  SECRET_KEY: z.string().min(32).optional(),
  /**
   * SCORM content is served from `<organization id>.<SCORM_DOMAIN>`, an origin of its own that never sees
   * the app's cookies (docs/decisions/020-scorm.md). Defaults to `scorm.<PLATFORM_DOMAIN>`.
   */
  SCORM_DOMAIN: z
    .string()
    .toLowerCase()
    .regex(/^[a-z0-9.-]+$/, "SCORM_DOMAIN must be a host name without port or scheme")
    .optional(),
  /**
   * Memory for visitors' rendered browsing pages (home, categories, carousels), in MiB; 0 keeps none
   * (docs/decisions/026-visitor-page-cache.md).
   */
  PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(16),
  /**
   * Memory for signed-in learners' kept home and course pages, in MiB; 0 keeps none
   * (docs/decisions/039-learner-page-cache.md).
   */
  LEARNER_PAGE_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(8),
  /**
   * Course cards' kept markup, in thousands of characters of keys and HTML; 0 keeps none
   * (docs/decisions/030-kept-markup.md). Read by app/utils/kept-markup.server.tsx; checked here at start.
   */
  KEPT_MARKUP_KB: z.coerce.number().int().min(0).max(1_048_576).default(1024),
  /** Whether super-admins must enter an e-mailed code after their password. */
  SUPER_ADMIN_2FA: flag,
  /** Certificates: the Chromium that renders PDFs, how many may run at once, how many may wait, and a render's time limit. */
  CHROME_PATH: z.string().default("/usr/bin/chromium"),
  CERTIFICATE_RENDERERS: z.coerce.number().int().min(1).max(16).default(2),
  CERTIFICATE_RENDER_QUEUE: z.coerce.number().int().min(0).max(256).default(32),
  CERTIFICATE_RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
});

/** Every setting the server reads (README "Configuration" and .env.example list each one). */
export const CONFIG_KEYS = Object.keys(schema.shape);

export type Config = Omit<z.infer<typeof schema>, "DATA_DIR"> & { DATA_DIR: string };

/** Reads the configuration from the environment; a bad value stops the server with a clear message. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // `NAME=` in an env file means "not set": use the default rather than reject an empty value.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = schema.safeParse(given);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...result.data, DATA_DIR: path.resolve(result.data.DATA_DIR) };
}
