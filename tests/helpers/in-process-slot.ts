/**
 * The one in-process server a test process runs at a time (tests/helpers/in-process.ts), kept in a module of
 * its own so that the clean-up every file runs (tests/setup/cleanup.ts) can look at it without loading the
 * app. A worker runs file after file (`isolate: false`, vitest.config.ts): a server a file leaves running
 * is stopped there and fails that file, rather than the next file the worker runs.
 */
interface Held {
  stop: () => Promise<void>;
}
let claimed = false;
let held: Held | null = null;

/** Claims the slot for a server about to start; throws while another holds it. */
export function claimSlot() {
  if (claimed) throw new Error("one in-process server at a time (see tests/helpers/in-process.ts)");
  claimed = true;
}

/** The started server now holds the slot (or, with null, the start failed and gives it back). */
export function holdSlot(server: Held | null) {
  held = server;
  if (!server) claimed = false;
}

/** The server has stopped. */
export function freeSlot() {
  held = null;
  claimed = false;
}

/** Stops a server still running at the end of a file; says whether there was one. */
export async function stopLeftServer(): Promise<boolean> {
  const left = held;
  if (!left) return false;
  await left.stop();
  return true;
}
