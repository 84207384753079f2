import fs from "node:fs";
import path from "node:path";
import type { AppLoadContext, LoaderFunction, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { identify } from "../../app/kernel/viewer.server";
import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";

/**
 * The data half of a signed-in page's floor (docs/decisions/014-speed.md, "How it is measured"): the page's two
 * loaders from the server build, and the viewer the server builds before them (the session, the learner's progress, the
 * cards) called directly in this process, in a hot loop, for the row's own mix of learners and paths. No HTTP, Express,
 * middleware, Remix or React: what the page's data costs on its own, with caches warmer than a server's.
 */
export async function loaderFloor({
  dataDir,
  host,
  vary,
}: {
  dataDir: string;
  host: string;
  vary: () => { path?: string; headers?: Record<string, string> };
}) {
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  const { organization } = platform.organizations.resolve(host);
  if (!organization) throw new Error(`no organization at ${host}`);
  const build = (await import(path.resolve(import.meta.dirname, "../../build/index.js"))) as ServerBuild;
  try {
    // One database for every run, as a request holds it (the pool's `withTenant`, for the length of the runs).
    return await platform.tenants.withTenant(organization.id, async (db) => {
      const once = async () => {
        const sample = vary();
        const path = sample.path ?? "/";
        await callPageLoaders(build, platform, organization, db, new Request(`http://${host}${path}`, { headers: sample.headers }));
      };
      for (let i = 0; i < 300; i++) await once();
      // The main thread's CPU time (the bench process's other threads, such as a checkpoint, are not the
      // loaders'), in nanoseconds from the kernel's scheduler statistics.
      const runs = 1_000;
      const started = mainThreadCpuNs();
      for (let i = 0; i < runs; i++) await once();
      return { ms: Math.round((mainThreadCpuNs() - started) / runs / 1e3) / 1e3 };
    });
  } finally {
    platform.close();
  }
}

/** CPU time the process's main thread has used so far, in ns (`/proc/<pid>/task/<pid>/schedstat`). */
function mainThreadCpuNs() {
  return Number(fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ")[0]);
}

/**
 * The root and page loaders of `/`, `/courses/{id}`, `/paths/{id}` or `/leaderboard` from the server build, for one request, as the server
 * calls them: the viewer worked out first, once (server/viewer.ts), then the loaders with the load context
 * (server/app.ts `getLoadContext`). Also used by scripts/learner-page-reads.ts.
 */
export async function callPageLoaders(build: ServerBuild, platform: Platform, organization: Organization, db: TenantDb, request: Request) {
  const viewer = await identify(request, {
    organization,
    db,
    platformDb: platform.db,
    superAdminTwoFactor: platform.config.SUPER_ADMIN_2FA,
  });
  const context = { organization, db, platform, cspNonce: "floor", requestId: "floor", clientIp: "127.0.0.1", viewer } as AppLoadContext;
  const pathname = new URL(request.url).pathname;
  const course = /^\/courses\/(\d+)$/.exec(pathname);
  const learningPath = /^\/paths\/(\d+)$/.exec(pathname);
  const id = (course ?? learningPath)?.[1];
  const args = { request, context, params: id ? { id } : {} } as LoaderFunctionArgs;
  await (build.routes.root.module.loader as LoaderFunction)(args);
  const page = course
    ? "pages/courses/$id/index"
    : learningPath
      ? "pages/paths/$id"
      : pathname === "/leaderboard"
        ? "pages/leaderboard"
        : "pages/index";
  await (build.routes[page].module.loader as LoaderFunction)(args);
}
