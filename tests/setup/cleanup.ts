import { afterAll } from "vitest";
import { removeTempDirs } from "../helpers/temp";

// Registered before the test file's own hooks, so with vitest's "stack" order it runs after them
// (servers are stopped by then).
afterAll(() => removeTempDirs());
