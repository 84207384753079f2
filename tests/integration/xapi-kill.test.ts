import crypto from "node:crypto";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { makeDataDir, startServer, type RunningServer } from "../helpers/server";
import { ACME, makeCredential, statement, xapi, type Credential } from "../helpers/xapi";

/*
 * A batch of statements is one transaction, answered only once committed (docs/decisions/043-learning-record-store.md,
 * "Voiding and immutability": all stored or none): a server process killed with SIGKILL while batches arrive
 * keeps every statement it acknowledged and no part of a batch it did not store whole.
 */

const BATCH = 50;
const CLIENTS = 4;
/** The server is killed as soon as this many batches have been acknowledged (others are in flight then). */
const KILL_AFTER = 8;

let server: RunningServer;
let credential: Credential;
beforeAll(async () => {
  const dataDir = makeDataDir();
  credential = makeCredential({ dataDir }, ACME.id, { scope: "all" });
  server = await startServer({ dataDir });
});
afterAll(() => {
  if (server?.process.exitCode === null && server.process.signalCode === null) server.process.kill("SIGKILL");
});

describe("A kill -9 during batch POSTs", () => {
  it("loses no acknowledged statement and stores no half batch", async () => {
    const running = server;
    const exited = new Promise((resolve) => running.process.once("exit", resolve));

    /** Every batch sent, by its registration (each batch's statements share one), and those acknowledged. */
    const sent = new Map<string, string[]>();
    const acknowledged = new Map<string, string[]>();
    let killed = false;
    const client = async () => {
      while (!killed) {
        const registration = crypto.randomUUID();
        const batch = Array.from({ length: BATCH }, () => statement("alice", { registration }));
        const ids = batch.map((s) => s.id);
        sent.set(registration, ids);
        try {
          const res = await xapi(running, ACME.host, "POST", "statements", { auth: credential.auth, body: batch });
          expect(res.status, res.body).toBe(200);
          acknowledged.set(registration, res.json());
        } catch (error) {
          // Refused or cut off by the kill: not acknowledged.
          if (!killed) throw error;
          return;
        }
        if (acknowledged.size >= KILL_AFTER && !killed) {
          killed = true;
          running.process.kill("SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(await exited).toBeNull();
    expect(running.process.signalCode).toBe("SIGKILL");

    const db = new Database(tenantDatabaseFile(running.dataDir, ACME.id));
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      // The demo's own statements aside: those this test's credential sent.
      const rows = db.prepare("select id, registration from xapi_statements where credential_id = ?").all(credential.id) as Array<{
        id: string;
        registration: string;
      }>;
      const stored = new Map<string, Set<string>>();
      for (const row of rows) {
        expect(sent.has(row.registration), `a statement no batch sent: ${row.id}`).toBe(true);
        stored.set(row.registration, (stored.get(row.registration) ?? new Set()).add(row.id));
      }
      // Every batch whole or not at all; every acknowledged one whole.
      for (const [registration, ids] of stored) expect(ids).toEqual(new Set(sent.get(registration)));
      for (const [registration, ids] of acknowledged) expect(stored.get(registration)).toEqual(new Set(ids));
      expect(stored.size).toBeGreaterThanOrEqual(KILL_AFTER);
      // And each stored statement with its index rows (written in the same transaction).
      const unindexed = db
        .prepare(
          `select count(*) from xapi_statements s
           where s.credential_id = ?
             and (not exists (select 1 from xapi_statement_agents a where a.seq = s.seq and a.role = 'actor')
                  or not exists (select 1 from xapi_statement_activities a where a.seq = s.seq and a.role = 'object'))`,
        )
        .pluck()
        .get(credential.id);
      expect(unindexed).toBe(0);
    } finally {
      db.close();
    }
  });
});
