/** A row of the bench's table: a figure against its target. */
export interface Row {
  what: string;
  rps?: number;
  p95?: number;
  /** Server CPU ms per request, and the baseline's divided by it (the throughput ratio an idle machine would show). */
  cpu?: number;
  cpuRatio?: number;
  /** The figure compared with the target (a ratio, milliseconds, MiB or KiB). */
  value: number;
  target: string;
  ok: boolean;
}

/** What the bench's parts add to as they run: the table's rows, the run's JSON and the servers' peak memory. */
export interface Report {
  table: Row[];
  json: Record<string, unknown>;
  rssPeaks: number[];
}

export const atLeast = (value: number, target: number) => ({ value, target: `>= ${target}`, ok: value >= target });
export const atMost = (value: number, target: number) => ({ value, target: `<= ${target}`, ok: value <= target });

export function printTable(table: Row[]) {
  console.log("\n  req/s   p95 ms  cpu ms/req  cpu ratio      value   target         what");
  for (const row of table) {
    console.log(
      `${String(row.rps ?? "").padStart(7)} ${String(row.p95 ?? "").padStart(8)} ${String(row.cpu ?? "").padStart(11)} ${String(row.cpuRatio ?? "").padStart(10)} ${String(row.value).padStart(10)}   ${row.target.padEnd(13)}${row.ok ? " ok " : " MISS"}  ${row.what}`,
    );
  }
  console.log("  (value: requests/s ratios against the baseline of this run; cpu ratio: the same from server CPU time per request)");
}
