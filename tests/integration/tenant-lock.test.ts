import { spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WRITE_WAIT } from "../../db/write-lock";
import { api, postForm } from "../helpers/auth";
import { form, multipart, request, type HttpResponse } from "../helpers/http";
import { ROOT, startServer, type RunningServer } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * docs/security.md: a write lock held on one organization's file by another process (backup, migration, CLI)
 * leaves every other organization answering as fast as before; the locked one's writes wait briefly off
 * the event loop, then get 503 with Retry-After — never a 500, never a frozen server
 * (docs/decisions/033-tenant-write-locks.md).
 */
/**
 * Two servers, started together. `server`: Acme's file held whole as the server first opens it while
 * Nordlys answers, then the write locks on Acme and the background job (JOB_STEP_DELAY_MS slows the steps
 * of jobs, and only that test runs one). `untouched`: asked nothing until the file's last test, Nordlys's
 * file held whole as the server first opens it since its start-up look.
 */
let server: RunningServer;
let untouched: RunningServer;
beforeAll(async () => {
  [server, untouched] = await Promise.all([startServer({ env: { JOB_STEP_DELAY_MS: "300" } }), startServer()]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), untouched?.stop()]);
});

const ACME = "acme.localhost";
const NORDLYS = "nordlys.localhost";
/** How long a write waits for the lock before its 503 (5 s). */
const WAIT_MS = WRITE_WAIT.maxMs;
/** Longer than that by a wide margin, so the writes that arrive during the lock get their 503 before it ends. */
const HOLD_MS = WAIT_MS + 2_000;
/**
 * "At once", for a busy machine (a first call opening a file took 0.7 s on one): well under the 5 s wait that
 * a server waiting inside SQLite, or held up by requests waiting for another organization, would add.
 */
const FAST_MS = 2_000;

/**
 * Another process takes `BEGIN IMMEDIATE` on the file and keeps it `ms` without committing; with `whole`,
 * in exclusive locking mode after a write, so that no other connection may even read the file (as while the
 * last connection to close removes the WAL, or SQLite recovers the file after a crash).
 */
async function holdWriteLock(file: string, ms: number, { whole = false } = {}) {
  return (await lockerFor(file, ms, { whole })).lock();
}

/**
 * The process of `holdWriteLock`, started and ready, taking the lock on `lock()`: for a moment that must not
 * wait for a Node process to start on a busy machine.
 */
async function lockerFor(file: string, ms: number, { whole = false } = {}) {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(${JSON.stringify(file)});
    console.log("ready");
    process.stdin.once("data", () => {
      ${whole ? `db.pragma("locking_mode = EXCLUSIVE");` : ""}
      db.exec("BEGIN IMMEDIATE");
      ${whole ? `db.prepare("update content_version set version = version where id = 1").run();` : ""}
      console.log("locked");
      setTimeout(() => { db.exec("ROLLBACK"); db.close(); console.log("released"); }, ${ms});
    });`;
  const child = spawn(process.execPath, ["-e", script], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const look = () => {
        if (!output.includes(word)) return;
        child.stdout!.off("data", look);
        resolve();
      };
      child.stdout!.on("data", look);
      look();
      void exited.then((code) => reject(new Error(`the locking process exited (${code}) before it said ${word}`)));
    });
  child.stdout!.on("data", (chunk) => (output += chunk));
  await said("ready");
  return {
    lock: async () => {
      child.stdin!.end("go\n");
      await said("locked");
      return { released: () => output.includes("released"), exited };
    },
  };
}

/** A POST whose headers go now and whose body goes on `send()`: the server passes its checks meanwhile. */
function postWithLateBody(port: number, host: string, pathname: string, headers: Record<string, string>, body: string) {
  const req = http.request({
    host: "127.0.0.1",
    port,
    path: pathname,
    method: "POST",
    headers: { Host: host, "Content-Length": String(Buffer.byteLength(body)), ...headers },
    setHost: false,
    agent: false,
  });
  const reply = new Promise<HttpResponse>((resolve, reject) => {
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const text = raw.toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, raw, json: () => JSON.parse(text) });
      });
    });
    req.on("error", reject);
  });
  req.flushHeaders();
  return {
    send: async () => {
      const started = performance.now();
      req.end(body);
      const res = await reply;
      return { res, ms: performance.now() - started };
    },
  };
}

async function timed(send: () => Promise<HttpResponse>) {
  const started = performance.now();
  const res = await send();
  return { res, ms: performance.now() - started };
}

function categoryNames(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("select name from categories").pluck().all() as string[];
  } finally {
    db.close();
  }
}

function learnerName(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("select first_name from users where email = 'learner@acme.test'").pluck().get() as string;
  } finally {
    db.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a file another process holds whole when the server first opens it", () => {
  it("holds up that organization's pages and /api on timers until it is free, then answers", async () => {
    const s = server;
    const learner = await cookieFor(insertSession(s, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    const admin = insertSession(s, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    // The server's look at every file as it starts (server/jobs.ts `resumeAll`) is over, and the other
    // organization's page is warm: its first rendering on a busy machine may take longer than the lock.
    await sleep(500);
    expect((await request(s.port, NORDLYS, "/")).status).toBe(200);
    const lock = await holdWriteLock(path.join(s.dataDir, "org-1", "db.sqlite"), 800, { whole: true });
    const page = timed(() => request(s.port, ACME, "/", { headers: { Cookie: learner } })).then((r) => ({
      ...r,
      released: lock.released(),
    }));
    const call = timed(() => api(s, ACME, "GET", "courses/categories", { token: admin })).then((r) => ({
      ...r,
      released: lock.released(),
    }));
    // Meanwhile another organization answers at once.
    const other = await timed(() => request(s.port, NORDLYS, "/"));
    expect(other.res.status).toBe(200);
    expect(lock.released()).toBe(false);
    const [pageReply, apiReply] = await Promise.all([page, call]);
    // Answered once the other process let go: not a 503 (or a 500) for a moment's lock.
    expect(pageReply.res.status).toBe(200);
    expect(pageReply.res.body).toContain("Leo");
    expect(pageReply.released).toBe(true);
    expect(apiReply.res.status).toBe(200);
    expect(apiReply.released).toBe(true);
    expect(await lock.exited).toBe(0);
  });
});

describe("a write lock held on one organization's file by another process", () => {
  it("leaves the other organization as fast as before; the locked one's writes wait, then get 503 with Retry-After", async () => {
    const s = server;
    const acmeFile = path.join(s.dataDir, "org-1", "db.sqlite");
    const acmeAdmin = insertSession(s, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    const acmeLearner = await cookieFor(insertSession(s, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
    const nordlysAdmin = insertSession(s, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
    const nordlysLearner = await cookieFor(insertSession(s, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
    const nordlysCalls = [
      () => api(s, NORDLYS, "GET", "courses/categories", { token: nordlysAdmin }),
      () => request(s.port, NORDLYS, "/", { headers: { Cookie: nordlysLearner } }),
    ];
    // Both organizations open and warm before the clock matters.
    for (const call of nordlysCalls) expect((await call()).status).toBe(200);
    expect((await api(s, ACME, "GET", "courses/categories", { token: acmeAdmin })).status).toBe(200);

    // Two writes that pass every check before the lock is taken, and write only after it is (their body
    // comes late): they meet SQLITE_BUSY inside the action itself.
    const lateApi = postWithLateBody(
      s.port,
      ACME,
      "/api/courses/categories",
      { "Content-Type": "application/json", Authorization: `Bearer ${acmeAdmin}` },
      JSON.stringify({ name: "late body" }),
    );
    const latePage = postWithLateBody(
      s.port,
      ACME,
      "/profile?index",
      { ...form({}).headers, Origin: `http://${ACME}`, Cookie: acmeLearner },
      new URLSearchParams({ firstName: "Locked", lastName: "Out", language: "" }).toString(),
    );
    await sleep(500);

    const lock = await holdWriteLock(acmeFile, HOLD_MS);
    // Writes that arrive while the file is locked.
    const apiWrite = timed(() => api(s, ACME, "POST", "courses/categories", { token: acmeAdmin, body: { name: "while locked" } })).then(
      (r) => ({ ...r, released: lock.released() }),
    );
    const pageWrite = timed(() =>
      postForm(s, ACME, "/profile?index", { firstName: "Locked", lastName: "Out", language: "" }, acmeLearner),
    ).then((r) => ({ ...r, released: lock.released() }));

    const [lateApiReply, latePageReply] = await Promise.all([lateApi.send(), latePage.send()]);
    // Answered at once (no wait: the lock was free when they were checked), as a 503, never a 500.
    expect(lateApiReply.res.status).toBe(503);
    expect(lateApiReply.res.json()).toMatchObject({ error: true, status: 503, payload: { code: "unavailable" } });
    expect(Number(lateApiReply.res.headers["retry-after"])).toBeGreaterThan(0);
    expect(lateApiReply.ms).toBeLessThan(FAST_MS);
    expect(latePageReply.res.status).toBe(503);
    expect(latePageReply.res.headers["content-type"]).toContain("text/html");
    expect(latePageReply.res.body).toContain("Please try again in a few seconds");
    expect(Number(latePageReply.res.headers["retry-after"])).toBeGreaterThan(0);

    // Meanwhile Nordlys (and Acme's reads) answer as fast as ever.
    const slow: string[] = [];
    const until = performance.now() + 1_500;
    for (let i = 0; performance.now() < until; i++) {
      const { res, ms } = await timed(nordlysCalls[i % nordlysCalls.length]);
      expect(res.status).toBe(200);
      if (ms >= FAST_MS) slow.push(`Nordlys call ${i}: ${Math.round(ms)} ms`);
    }
    const acmeRead = await timed(() => api(s, ACME, "GET", "courses/categories", { token: acmeAdmin }));
    expect(acmeRead.res.status).toBe(200);
    if (acmeRead.ms >= FAST_MS) slow.push(`Acme read: ${Math.round(acmeRead.ms)} ms`);
    expect(slow).toEqual([]);

    // The writes that arrived during the lock waited (off the event loop, as long as SQLite's busy timeout
    // used to), then got 503 before it ended.
    const [apiReply, pageReply] = await Promise.all([apiWrite, pageWrite]);
    expect(apiReply.res.status).toBe(503);
    expect(apiReply.res.json()).toMatchObject({ error: true, status: 503, payload: { code: "unavailable" } });
    expect(Number(apiReply.res.headers["retry-after"])).toBeGreaterThan(0);
    expect(apiReply.ms).toBeGreaterThan(WAIT_MS - 500);
    expect(apiReply.released).toBe(false);
    expect(pageReply.res.status).toBe(503);
    expect(pageReply.res.body).toContain("Please try again in a few seconds");
    expect(pageReply.released).toBe(false);

    // Once the other process lets go, Acme takes writes again; nothing refused was written.
    expect(await lock.exited).toBe(0);
    const after = await api(s, ACME, "POST", "courses/categories", { token: acmeAdmin, body: { name: "after the lock" } });
    expect(after.status).toBe(201);
    const names = categoryNames(acmeFile);
    expect(learnerName(acmeFile)).toBe("Leo");
    const saved = await postForm(s, ACME, "/profile?index", { firstName: "Leonora", lastName: "Learner", language: "" }, acmeLearner);
    expect(saved.status).toBe(302);
    expect(learnerName(acmeFile)).toBe("Leonora");
    expect(names).toContain("after the lock");
    expect(names).not.toContain("while locked");
    expect(names).not.toContain("late body");
  }, 45_000);

  it("holds up a background job that meets it, which then finishes without spending an attempt", async () => {
    // Slow steps (JOB_STEP_DELAY_MS), so that the lock is taken in the middle of the copy.
    const s = server;
    const acmeFile = path.join(s.dataDir, "org-1", "db.sqlite");
    const token = insertSession(s, { organizationId: 1 }, { email: "admin@acme.test", kind: "api" });
    const call = (method: string, p: string, body?: unknown) => api(s, ACME, method, p, { token, body });
    const course = (await call("POST", "courses", { title: "Big", type: "series" })).json().payload;
    for (const n of [1, 2, 3, 4]) {
      const { body, contentType } = multipart(
        {},
        { file: { name: `part-${n}.pdf`, type: "application/pdf", data: Buffer.from(`%PDF-1.4\n%${n}\n%%EOF\n`) } },
      );
      const file = await request(s.port, ACME, "/api/files", {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
        body,
      });
      expect(file.status, file.body).toBe(201);
      expect((await call("POST", "materials", { course_id: course.id, file_id: file.json().payload.id, title: `Part ${n}` })).status).toBe(
        201,
      );
    }
    const locker = await lockerFor(acmeFile, 1_500);
    const started = await call("POST", `courses/${course.id}/clone`);
    expect(started.status).toBe(202);
    const jobId = started.json().payload.id as number;
    let firstStart = "";
    for (let i = 0; ; i++) {
      const job = (await call("GET", `jobs/${jobId}`)).json().payload;
      firstStart = job.started_at;
      if (job.status === "running" && job.progress > 2) break;
      if (i > 100) throw new Error(`the job did not get going: ${JSON.stringify(job)}`);
      await sleep(20);
    }
    const lock = await locker.lock();
    // The job's reads go on during the lock; its writes wait for the lock to go.
    expect((await call("GET", `jobs/${jobId}`)).json().payload.status).toBe("running");
    expect(await lock.exited).toBe(0);

    let job: { status: string; result: { course_id: number } | null; started_at: string };
    for (let i = 0; ; i++) {
      job = (await call("GET", `jobs/${jobId}`)).json().payload;
      if (job.status === "done" || job.status === "failed") break;
      if (i > 300) throw new Error(`the job did not finish: ${JSON.stringify(job)}`);
      await sleep(50);
    }
    expect(job.status).toBe("done");
    // It met the lock and was run again from the start (handlers make that safe), as after a restart.
    expect(Date.parse(job.started_at)).toBeGreaterThan(Date.parse(firstStart));
    const copied = (await call("GET", `materials?course_id=${job.result!.course_id}`)).json().payload.data;
    expect(copied).toHaveLength(4);
    const db = new Database(acmeFile, { readonly: true });
    try {
      expect(db.prepare("select attempts from jobs where id = ?").pluck().get(jobId)).toBe(1);
    } finally {
      db.close();
    }
  });
});

describe("a file another process holds whole when the server first opens it, past a write's wait", () => {
  // On `untouched`, the file's last test: Nordlys's file has not been opened since the server's start-up look at it.
  it("past a write's wait, answers the busy 503 with Retry-After, never a 500, and stays as fast for others", async () => {
    const s = untouched;
    // The start-up look is over, and Acme is open and warm before the clock matters (its first page on a
    // busy machine may take longer than FAST_MS); Nordlys stays untouched.
    await sleep(500);
    expect((await request(s.port, ACME, "/")).status).toBe(200);
    const long = await holdWriteLock(path.join(s.dataDir, "org-2", "db.sqlite"), HOLD_MS, { whole: true });
    const waiting = Promise.all([
      timed(() => request(s.port, NORDLYS, "/")),
      timed(() => api(s, NORDLYS, "GET", "courses/categories")),
      // A crowd waiting for the same file makes one try at a time: the server stays as fast for others.
      ...Array.from({ length: 100 }, () => request(s.port, NORDLYS, "/").then((res) => ({ res, ms: 0 }))),
    ]);
    const slow: string[] = [];
    const until = performance.now() + 1_500;
    for (let i = 0; performance.now() < until; i++) {
      const { res, ms } = await timed(() => request(s.port, ACME, "/"));
      expect(res.status).toBe(200);
      if (ms >= FAST_MS) slow.push(`Acme call ${i}: ${Math.round(ms)} ms`);
    }
    expect(slow).toEqual([]);
    const [busyPage, busyApi, ...crowd] = await waiting;
    expect(crowd.every((r) => r.res.status === 503)).toBe(true);
    expect(long.released()).toBe(false);
    expect(busyPage.res.status).toBe(503);
    expect(busyPage.res.headers["content-type"]).toContain("text/html");
    expect(Number(busyPage.res.headers["retry-after"])).toBeGreaterThan(0);
    expect(busyPage.ms).toBeGreaterThan(WAIT_MS - 500);
    expect(busyApi.res.status).toBe(503);
    expect(busyApi.res.json()).toMatchObject({ error: true, status: 503, payload: { code: "unavailable" } });
    expect(await long.exited).toBe(0);
    expect((await request(s.port, NORDLYS, "/")).status).toBe(200);
  }, 45_000);
});
