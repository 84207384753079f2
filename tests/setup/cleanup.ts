import { afterAll } from "vitest";
import { stopLeftServer } from "../helpers/in-process-slot";
import { removeTempDirs } from "../helpers/temp";

// Registered before the test file's own hooks, so with vitest's "stack" order it runs after them
// (servers are stopped by then). An in-process server still running is stopped, and fails the file that
// left it (the worker goes on to its next file: tests/helpers/in-process-slot.ts).
afterAll(async () => {
  const left = await stopLeftServer();
  removeTempDirs();
  if (left) throw new Error("this file left its in-process server running: stop it in an afterAll");
});
