/**
 * V8's heap settings for the server process, as `npm start`, `npm run serve`, the Dockerfile, the bench
 * and the tests' server start it (a test checks they agree). Soft: V8 collects garbage sooner, with no
 * limit on how much memory it may use (docs/decisions/028-memory-and-the-pool.md).
 * - `--heap-growing-percent`: after a full collection the old generation may grow by this much before the
 *   next one, instead of V8's default of up to 4x on a machine with much memory. (A smaller young
 *   generation, `--max-semi-space-size`, saved another 10–20 MiB but made the course page's render up to
 *   half again as costly; it is not used.)
 * - `--no-allocation-site-pretenuring`: V8 may decide that what a line of code allocates usually lives long
 *   and allocate it straight in the old generation from then on. A server's caches are filled by the same
 *   lines that make each request's short-lived garbage (drizzle's row mapping, for one; a release build of
 *   Node does not say which), so after the pages had filled their caches, heartbeats put their garbage in the old
 *   generation: each young collection left twice as much behind, full collections came twice as often,
 *   and a heartbeat cost a fifth more CPU than on a fresh server (docs/decisions/014-speed.md, "Memory and the process").
 */
export const NODE_FLAGS = ["--heap-growing-percent=30", "--no-allocation-site-pretenuring"];
