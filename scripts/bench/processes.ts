import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";

export interface Server {
  port: number;
  child: ChildProcess;
}

/**
 * A server process of the bench: `args` after node's own (flags and the script), started with `env` over
 * the bench's own environment (production, a free port, no request log); resolved once it says where it
 * listens.
 */
export async function startProcess(args: string[], env: Record<string, string>, cwd: string): Promise<Server> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, NODE_ENV: "production", PORT: "0", HOST: "127.0.0.1", LOG_REQUESTS: "false", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out: string | null = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      // `BENCH_SERVER_LOG=<file>`: the servers' output is kept there (e.g. with `--trace-gc` in BENCH_NODE_FLAGS).
      if (process.env.BENCH_SERVER_LOG) fs.appendFileSync(process.env.BENCH_SERVER_LOG, chunk);
      if (out === null) return;
      out += chunk;
      const match = out.match(/"msg":"listening","port":(\d+)/);
      if (match) {
        out = null;
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${out}`)));
  });
  return { port, child };
}

export async function stopProcess(server: Server) {
  await new Promise<void>((resolve) => {
    server.child.once("exit", () => resolve());
    server.child.kill("SIGTERM");
  });
}

/** CPU time a process has used so far (user + system), in ms. */
export function cpuMs(pid: number) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

/** One GET to a bench server on 127.0.0.1 as `host`, its time in ms; anything but 200 is an error. */
export function get(port: number, host: string, url: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.request({ host: "127.0.0.1", port, path: url, headers: { host, ...headers }, setHost: false }, (res) => {
      res.resume();
      res.on("end", () => {
        if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
        resolve(Number(process.hrtime.bigint() - start) / 1e6);
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * The same GET `requests` times one after another, after `warm` unmeasured ones: p50 and p95 in ms, and the
 * server's CPU per request when its pid is known (the one-at-a-time rows of an admin's screen).
 */
export async function timeOneByOne(
  { port, host, url, headers, pid }: { port: number; host: string; url: string; headers: Record<string, string>; pid?: number },
  { requests, warm }: { requests: number; warm: number },
) {
  for (let i = 0; i < warm; i++) await get(port, host, url, headers);
  const times: number[] = [];
  const before = pid ? cpuMs(pid) : 0;
  for (let i = 0; i < requests; i++) times.push(await get(port, host, url, headers));
  times.sort((a, b) => a - b);
  const p = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(times.length * q))] * 10) / 10;
  return { p50: p(0.5), p95: p(0.95), cpu: pid ? Math.round(((cpuMs(pid) - before) / requests) * 100) / 100 : null };
}
