import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";
import { migrationsApplied } from "../db/open";
import type { Platform } from "./platform";
import { logger } from "./logger";

/**
 * `GET /healthz`: the process is up and serving. `GET /readyz`: it can do real work — the platform
 * database answers, its migrations are applied, and the data directory takes a write. Both are answered
 * before logging, tenancy and rate limits (a proxy or orchestrator polls them every few seconds), on any
 * host, and reveal nothing but which check failed.
 */
export function healthChecks(platform: Platform) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    if (req.path === "/healthz") return reply(res, 200, { status: "ok" });
    if (req.path !== "/readyz") return next();
    const checks = readiness(platform);
    const ready = Object.values(checks).every((c) => c === "ok");
    reply(res, ready ? 200 : 503, { status: ready ? "ok" : "unavailable", checks });
  };
}

export function readiness(platform: Platform) {
  return {
    database: attempt(() => {
      platform.db.$client.prepare("select count(*) from sqlite_master").get();
    }),
    migrations: attempt(() => {
      if (!migrationsApplied(platform.db.$client, "platform")) throw new Error("pending migrations");
    }),
    storage: attempt(() => {
      const probe = path.join(platform.dataDir, `.readyz-${process.pid}-${crypto.randomBytes(4).toString("hex")}`);
      fs.writeFileSync(probe, "ok", { flag: "wx" });
      fs.rmSync(probe, { force: true });
    }),
  };
}

function attempt(check: () => void): "ok" | "failed" {
  try {
    check();
    return "ok";
  } catch (error) {
    logger.error({ error: String(error) }, "readiness check failed");
    return "failed";
  }
}

function reply(res: Response, status: number, body: unknown) {
  res.status(status).setHeader("Cache-Control", "no-store").type("application/json").send(JSON.stringify(body));
}
