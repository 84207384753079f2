/**
 * V8's heap settings for the server process, as `npm start`, `npm run serve`, the Dockerfile, the bench
 * and the tests' server start it (a test checks they agree). Both are soft: they make V8 collect garbage
 * sooner, never limit how much memory it may use (docs/decisions/028-memory-and-the-pool.md).
 * - `--heap-growing-percent`: after a full collection the old generation may grow by this much before the
 *   next one, instead of V8's default of up to 4x on a machine with much memory.
 * - `--max-semi-space-size`: the young generation's half-spaces, in MiB (default 16).
 */
export const NODE_FLAGS = ["--heap-growing-percent=30", "--max-semi-space-size=4"];
