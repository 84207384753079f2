import autocannon from "autocannon";
import { cpuMs } from "./processes";
import { CONNECTIONS, DURATION } from "./settings";

export interface Load {
  port: number;
  /** The server's process: its CPU time per request is reported beside the throughput. */
  pid?: number;
  path: string;
  hosts: string[];
  /** Per request: a different path, method, body or headers (signed-in learners, heartbeats). */
  vary?: () => { path?: string; method?: string; body?: string; headers?: Record<string, string> };
}

export type Measured = Awaited<ReturnType<typeof measure>>;

/** A load against a bench server for `duration` seconds (or `amount` requests): throughput, latency and CPU. */
export async function measure({ port, pid, path: urlPath, hosts, vary }: Load, duration = DURATION, amount?: number) {
  const cpuBefore = pid ? cpuMs(pid) : 0;
  let next = 0;
  const latencies: number[] = [];
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    // A number of requests instead of a time, when given (one visit of every organization).
    ...(amount ? { amount } : { duration }),
    requests: [
      {
        method: "GET",
        path: urlPath,
        // A new Host on every request spreads the load over the organizations round-robin.
        setupRequest: (req: autocannon.Request) => {
          const extra = vary?.() ?? {};
          return {
            ...req,
            ...(extra.path ? { path: extra.path } : {}),
            ...(extra.method ? { method: extra.method } : {}),
            ...(extra.body ? { body: extra.body } : {}),
            headers: { ...req.headers, ...(extra.headers ?? {}), host: hosts[next++ % hosts.length] },
          } as autocannon.Request;
        },
      },
    ],
  });
  (instance as unknown as NodeJS.EventEmitter).on("response", (_client: unknown, _status: number, _bytes: number, responseTime: number) =>
    latencies.push(responseTime),
  );
  const result = await instance;
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${bad} failed requests against ${urlPath}`);
  latencies.sort((a, b) => a - b);
  const p95 = latencies.length ? Math.round(latencies[Math.floor(latencies.length * 0.95)] * 10) / 10 : 0;
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p95,
    p99: result.latency.p99,
    requests: result.requests.total,
    /** Server CPU ms per request: steadier than requests/s on a machine shared with other work. */
    cpuPerRequest: pid && result.requests.total ? Math.round(((cpuMs(pid) - cpuBefore) / result.requests.total) * 1000) / 1000 : 0,
  };
}

/** A warmed-up measurement: two seconds first for the JIT, caches and open handles. */
export async function run(load: Load) {
  await measure(load, 2); // warm up: JIT, caches, open handles
  return measure(load);
}

export const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
