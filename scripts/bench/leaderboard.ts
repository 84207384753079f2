import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createOrganization } from "../../app/models/organization.server";
import { ensureLeaderboard } from "../../app/models/points.server";
import { dayIn, monthKey, weekKey } from "../../app/utils/calendar";
import { readConfig } from "../../server/config";
import { getPage } from "./render-floor";
import { Platform } from "../../server/platform";

/**
 * Leaderboard at two sizes (issue 13): the /leaderboard page and `GET /api/leaderboard/rank/{id}` with
 * 1,000 and with 100,000 learners. Rank comes from the points histogram, so the larger board should
 * answer within 2x of the smaller. Ledger rows are written straight into the database, and the totals
 * and histogram derived from them with SQL (the same sums the model maintains award by award).
 */
interface Result {
  rps: number;
  p50: number;
  p95: number;
}
type Run = (load: {
  port: number;
  path: string;
  hosts: string[];
  vary?: () => { path?: string; headers?: Record<string, string> };
}) => Promise<Result>;
interface Harness {
  start: (script: string, env: Record<string, string>) => Promise<{ port: number; child: import("node:child_process").ChildProcess }>;
  stop: (server: { port: number; child: import("node:child_process").ChildProcess }) => Promise<void>;
  run: Run;
}

export function seedBoard(learners: number, sessions = 200) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-leaderboard-"));
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  const organization = createOrganization(platform.db, { dataDir }, { name: "Bench Board", urlPrefix: "board", language: "en" });
  const { cookies, tokens } = platform.tenants.withTenant(organization.id, (db) => {
    const settings = ensureLeaderboard(db);
    const sqlite = db.$client;
    const now = new Date();
    const day = dayIn(settings.timeZone, now);
    const at = Math.floor(now.getTime() / 1000);
    sqlite.transaction(() => {
      sqlite.prepare("insert into courses (title, published) values ('Bench course', 1)").run();
      const user = sqlite.prepare("insert into users (email, first_name, last_name, role) values (?, 'Learner', ?, 'learner')");
      const ledger = sqlite.prepare(
        "insert into points_ledger (user_id, activity, ref, course_id, points, day, created_at) values (?, ?, ?, 1, ?, ?, ?)",
      );
      for (let i = 1; i <= learners; i++) {
        user.run(`learner${i}@bench.test`, String(i));
        // A long-tailed spread of points, as real boards have: many with little, few with much.
        const lessons = 1 + Math.floor(60 * Math.random() ** 2);
        ledger.run(i, "lesson_completed", "lesson:bench", lessons * 10, day, at);
        if (lessons > 20) ledger.run(i, "course_completed", "course:1", 50, day, at);
      }
      for (const [period, key] of [
        ["life", ""],
        ["all", ""],
        ["month", monthKey(day)],
        ["week", weekKey(day)],
        ["course", "1"],
      ]) {
        sqlite
          .prepare(
            "insert into points_totals (user_id, period, key, points, hidden) select user_id, ?, ?, sum(points), 0 from points_ledger group by user_id",
          )
          .run(period, key);
        sqlite
          .prepare(
            "insert into points_histogram (period, key, points, learners) select period, key, points, count(*) from points_totals where period = ? and key = ? group by points",
          )
          .run(period, key);
      }
      sqlite
        .prepare(
          "insert into learner_stats (user_id, current_streak, longest_streak, last_active_day) select id, 1 + id % 9, 1 + id % 9, ? from users",
        )
        .run(day);
      // The widgets' windows as a busy organization has them: a tenth of the learners watch on each of the
      // last ten days, and one in fifty bookmarked the course this month.
      const watched = sqlite.prepare("insert into watch_time_daily (user_id, day, seconds) values (?, ?, ?)");
      const utcToday = now.toISOString().slice(0, 10);
      for (let d = 0; d < 10; d++) {
        const utcDay = new Date(Date.parse(utcToday) - d * 86_400_000).toISOString().slice(0, 10);
        for (let i = 1; i <= learners; i++) if (Math.random() < 0.1) watched.run(i, utcDay, 60 + Math.floor(Math.random() * 3_600));
      }
      const bookmark = sqlite.prepare("insert into bookmarks (user_id, course_id, created_at) values (?, 1, ?)");
      for (let i = 1; i <= learners; i++) if (Math.random() < 0.02) bookmark.run(i, at - Math.floor(Math.random() * 20 * 86_400));
    })();
    const cookies: string[] = [];
    const tokens: string[] = [];
    const session = sqlite.prepare(
      "insert into sessions (token_hash, kind, user_agent, ip, created_at, last_seen_at, expires_at, two_factor_pending, user_id) values (?, ?, 'bench', '127.0.0.1', ?, ?, ?, 0, ?)",
    );
    for (let i = 1; i <= Math.min(sessions, learners); i++) {
      for (const kind of ["web", "api"] as const) {
        const token = crypto.randomBytes(32).toString("base64url");
        // Spread the signed-in learners over the whole board, top to bottom.
        const userId = 1 + Math.floor(((i - 1) * learners) / sessions);
        session.run(crypto.createHash("sha256").update(token).digest("hex"), kind, at, at, at + 2_592_000, userId);
        if (kind === "web") cookies.push(`lectern_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString("base64"))}`);
        else tokens.push(token);
      }
    }
    sqlite.pragma("optimize");
    return { cookies, tokens };
  });
  platform.close();
  return { dataDir, host: "board.localhost", cookies, tokens };
}

export async function benchLeaderboard(
  { start, stop, run }: Harness,
  sizes = [1_000, Number(process.env.BENCH_BOARD_LEARNERS ?? 100_000)],
) {
  const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
  const results: Array<{ learners: number; page: Result; rendered: Result; rank: Result; floor: Result }> = [];
  for (const learners of sizes) {
    const board = seedBoard(learners);
    const server = await start("server/index.ts", { DATA_DIR: board.dataDir });
    const page = await run({
      port: server.port,
      path: "/leaderboard",
      hosts: [board.host],
      vary: () => ({ headers: { cookie: pick(board.cookies) } }),
    });
    // The page row mostly answers from kept pages (server/learner-page-cache.ts): nothing on this board
    // changes while it runs. The same load with every page rendered, as after any learner's points or streak
    // moved: a query string no page was kept for.
    const rendered = await run({
      port: server.port,
      path: "/leaderboard",
      hosts: [board.host],
      vary: () => ({ path: `/leaderboard?visit=${Math.random().toString(36).slice(2)}`, headers: { cookie: pick(board.cookies) } }),
    });
    const rank = await run({
      port: server.port,
      path: "/",
      hosts: [board.host],
      vary: () => ({
        path: `/api/leaderboard/rank/${1 + Math.floor(Math.random() * learners)}?period=all`,
        headers: { authorization: `Bearer ${pick(board.tokens)}` },
      }),
    });
    // The floor of the page row (scripts/bench/baseline-page.ts): bare Express and Remix serving this page,
    // its data kept and its markup as plain elements, under the same load.
    const pageFile = path.join(board.dataDir, "leaderboard-page.html");
    fs.writeFileSync(pageFile, await getPage(server.port, "/leaderboard", { host: board.host, cookie: board.cookies[0] }));
    await stop(server);
    const bare = await start("scripts/bench/baseline-page.ts", { PAGE_FILE: pageFile });
    let floor: Result;
    try {
      floor = await run({ port: bare.port, path: "/leaderboard", hosts: [board.host] });
    } finally {
      await stop(bare);
    }
    fs.rmSync(board.dataDir, { recursive: true, force: true });
    results.push({ learners, page, rendered, rank, floor });
  }
  console.log("\nleaderboard");
  console.log("requests/s   p50 ms   p95 ms   what");
  for (const r of results) {
    console.log(
      `${String(r.page.rps).padStart(10)} ${String(r.page.p50).padStart(8)} ${String(r.page.p95).padStart(8)}   GET /leaderboard, ${r.learners} learners`,
    );
    console.log(
      `${String(r.rendered.rps).padStart(10)} ${String(r.rendered.p50).padStart(8)} ${String(r.rendered.p95).padStart(8)}   GET /leaderboard, ${r.learners} learners, every page rendered (nothing kept for it): ${Math.round((r.rendered.rps / r.floor.rps) * 1000) / 1000} of the floor`,
    );
    console.log(
      `${String(r.rank.rps).padStart(10)} ${String(r.rank.p50).padStart(8)} ${String(r.rank.p95).padStart(8)}   GET /api/leaderboard/rank/{id}, ${r.learners} learners`,
    );
    console.log(
      `${String(r.floor.rps).padStart(10)} ${String(r.floor.p50).padStart(8)} ${String(r.floor.p95).padStart(8)}   floor: bare Express + Remix serving the same /leaderboard page (kept data, plain elements); the page at ${Math.round((r.page.rps / r.floor.rps) * 1000) / 1000} of it`,
    );
  }
  const [small, large] = results;
  if (small && large) {
    console.log(
      `  rank at ${large.learners} vs ${small.learners} learners: ${Math.round((small.rank.rps / large.rank.rps) * 100) / 100}x slower (goal: within 2x)`,
    );
    console.log(
      `  page at ${large.learners} vs ${small.learners} learners: ${Math.round((small.page.rps / large.page.rps) * 100) / 100}x slower`,
    );
  }
  return results;
}
