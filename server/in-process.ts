// What tests/helpers/in-process.ts wires into a server inside a test's process, as server/index.ts wires
// them: compiled into build/in-process.js by scripts/build-server.mjs as server/index.ts is into
// build/server.js, so a test loads them as Node loads the server (its own copies of the app's modules, as
// the server has), not through vitest's transform of their sources. Not part of the running server.
export { CONFIG_KEYS, readConfig } from "./config";
export { Platform } from "./platform";
export { createApp } from "./app";
export { settleImageRenders } from "./images";
export { subscribeLearningEvents } from "../app/models/subscribers.server";
export { SERVER_BUSY_TIMEOUT_MS } from "../db/write-lock";
export { scheduleRecertification } from "./recertification";
export { scheduleAuditRetention } from "./audit-retention";
export { logger } from "./logger";
