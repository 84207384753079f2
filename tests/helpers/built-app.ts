import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { ROOT } from "./server";

/**
 * The built app (`build/index.js`, what `npm run build` wrote and the server runs), loaded by Node as the
 * server loads it (vitest.config.ts leaves the file to Node rather than compile its 1.4 MB again in every
 * test process), once a test process: the in-process server (tests/helpers/in-process.ts) and the route
 * walks (tests/helpers/routes.ts) share it.
 */
export async function loadBuild(): Promise<ServerBuild> {
  return (await import(/* @vite-ignore */ pathToFileURL(path.join(ROOT, "build", "index.js")).href)) as ServerBuild;
}

/**
 * What a server in the test's process is made of (server/in-process.ts), compiled as the server is
 * (build/in-process.js, beside build/server.js) and loaded by Node: no second compile of the server's
 * sources by vitest in every test process.
 */
export async function loadServerParts(): Promise<typeof import("../../server/in-process")> {
  return (await import(
    /* @vite-ignore */ pathToFileURL(path.join(ROOT, "build", "in-process.js")).href
  )) as typeof import("../../server/in-process");
}
