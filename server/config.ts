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
  TENANT_POOL_SIZE: z.coerce.number().int().min(1).default(64),
  /** `auto` seeds the demo organizations when the data directory holds none; `false` never does. */
  SEED_DEMO: z.enum(["auto", "false"]).default("auto"),
  LOG_REQUESTS: z.enum(["true", "false"]).default("true").transform((v) => v === "true"),
  NODE_ENV: z.string().default("production"),
});

export type Config = Omit<z.infer<typeof schema>, "DATA_DIR"> & { DATA_DIR: string };

/** Reads the configuration from the environment; a bad value stops the server with a clear message. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...result.data, DATA_DIR: path.resolve(result.data.DATA_DIR) };
}
