import type { AppLoadContext } from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";
import { DatabaseUnavailableError, type TenantDb } from "../db/open";
import type { Organization } from "../db/platform";
import type { TenantPool } from "../db/tenant-pool";
import { isBusyError, sharedAttempt, tryWriteLock, waitForWriteLock, WriteLockWait } from "../db/write-lock";
import { logger } from "./logger";
import { sendStatusPage } from "./status-page";

/**
 * A tenant file locked by another process (a migration, a script) must hold up that organization's writes
 * only, never the event loop (docs/security.md; docs/decisions/033-tenant-write-locks.md). The server's tenant
 * handles have no SQLite busy timeout, so:
 *  - `waitForTenantWrites`: before a request that may write reaches its action, the write lock is tried
 *    (taken and given back at once). Free: the request goes on in the same turn. Held: the request waits
 *    on timers (db/write-lock.ts) and goes on once it is free, or is answered 503 with `Retry-After`;
 *  - a write that still meets the lock (another process took it after the try) fails with SQLITE_BUSY at
 *    once; the build's handleError marks the load context (app/entry.server.tsx), and the document and
 *    /api handlers answer that same 503 instead of the 500 (`tenantWasBusy`, `sendTenantBusy`).
 * Reads are never held up: in WAL mode they do not wait for a writer.
 */
const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

interface TenantLocals {
  organization: Organization | null;
  db: TenantDb | null;
}

export function waitForTenantWrites() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (READ_METHODS.has(req.method)) return next();
    const sqlite = (res.locals.tenant as TenantLocals | undefined)?.db?.$client;
    if (!sqlite) return next();
    if (tryWriteLock(sqlite)) return next();
    // Held by someone else: wait on timers while the client is still there.
    let gone = false;
    res.once("close", () => (gone = true)); // its lease is given back then (server/app.ts `tenancy`)
    const started = Date.now();
    waitForWriteLock(sqlite, { abandoned: () => gone }).then((free) => {
      if (gone) return;
      if (free) next();
      else sendTenantBusy(req, res, Date.now() - started);
    }, next);
  };
}

/** Whether a loader or action of this request met a tenant file locked by another process. */
export function tenantWasBusy(res: Response) {
  return (res.locals.loadContext as AppLoadContext | undefined)?.tenantBusy === true;
}

/** That organization alone answers 503 with a short `Retry-After` (the envelope on /api). */
export function sendTenantBusy(req: Request, res: Response, waitedMs?: number) {
  const organization = (res.locals.tenant as TenantLocals | undefined)?.organization ?? null;
  logger.warn(
    { id: res.locals.requestId, org: organization?.id, method: req.method, path: req.path, waitedMs },
    "tenant file locked by another process",
  );
  if (res.headersSent) return void res.end();
  sendStatusPage(req, res, 503, { language: organization?.language, busy: true });
}

/** Whether opening an organization's file failed only because another process held it whole for a moment. */
export function openWasBusy(error: unknown) {
  return error instanceof DatabaseUnavailableError && isBusyError(error.cause);
}

/** The next try at opening each organization's file into the pool, shared by every request waiting for it. */
const nextOpenTries = new Map<number, Promise<void>>();

/**
 * Opening the organization's file met another process holding it whole for a moment: a connection that
 * closes last checkpoints and removes the WAL under an exclusive lock, and SQLite recovers a file after a
 * crash the same way; another server opening and closing every file as it starts (server/jobs.ts
 * `resumeAll`) does both. The request waits on timers, as a write waits for the lock (db/write-lock.ts):
 * one try at a time per organization, opening the file into the pool, however many requests wait. Once it
 * opened, the request holds the file for its life and goes on (`opened`); after as long as a write would
 * wait, or on any other failure, `failed` has the last error. Nothing happens once the client has gone.
 */
export function openWhenFree(
  res: Response,
  tenants: TenantPool,
  organizationId: number,
  opened: (db: TenantDb) => void,
  failed: (error: unknown) => void,
) {
  const wait = new WriteLockWait();
  let gone = false;
  res.once("close", () => (gone = true));
  const step = async () => {
    for (;;) {
      let db: TenantDb | null = null;
      try {
        await sharedAttempt(nextOpenTries, organizationId, wait.nextDelay(), () => tenants.withTenant(organizationId, () => undefined));
        if (gone) return;
        db = tenants.holdFor(organizationId, res);
      } catch (error) {
        if (gone) return;
        if (openWasBusy(error) && wait.keepWaiting()) continue;
        return failed(error);
      }
      return opened(db);
    }
  };
  void step();
}
