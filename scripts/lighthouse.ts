/**
 * `npm run lighthouse` (after `npm run build`): Lighthouse CI (@lhci/cli 0.14.0, Lighthouse 12.1, mobile
 * preset, Debian's Chromium) on the demo, asserting issue 33's targets (docs/decisions/034-lighthouse.md).
 *
 * It seeds the demo into a temporary data directory, starts the built server there on a free port, signs
 * the demo learner in with a session row, warms the pages (server caches, the image provider's renders),
 * then, for each theme, runs `lhci collect`, `lhci assert` and `lhci upload --target=filesystem` twice: the
 * visitor's home, and the learner's home, a course page, a video lesson, a quiz lesson and the leaderboard
 * (the learner's Cookie header goes with every request Lighthouse makes). Reports land in
 * tests/artifacts/lighthouse/ (git-ignored), with summary.md: the median of the runs for each page.
 *
 * LIGHTHOUSE_RUNS (default 3) runs per page; LIGHTHOUSE_THEMES (`light,dark`) and LIGHTHOUSE_PAGES (names,
 * e.g. `home,video`) narrow it. Exits 1 when an assertion fails (every page is still measured first).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { launchBrowser, CHROMIUM } from "../tests/helpers/browser";
import { auditedPages, cookieHeader, HOST, lhciCli, THEMES, type AuditedPage, type Theme } from "../tests/helpers/lighthouse";
import { ROOT, startServer } from "../tests/helpers/server";
import { removeTempDirs, tempDir } from "../tests/helpers/temp";

const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const themes = (process.env.LIGHTHOUSE_THEMES?.split(",") ?? THEMES).filter((t): t is Theme => (THEMES as readonly string[]).includes(t));
const only = process.env.LIGHTHOUSE_PAGES?.split(",");
const ARTIFACTS = path.join(ROOT, "tests", "artifacts", "lighthouse");

/** Issue 33's targets. Scores are 0–1; times in ms. Every page: performance ≥ 0.98 and 100 in the other three. */
const EVERY_PAGE = {
  "categories:performance": ["error", { minScore: 0.98 }],
  "categories:accessibility": ["error", { minScore: 1 }],
  "categories:best-practices": ["error", { minScore: 1 }],
  "categories:seo": ["error", { minScore: 1 }],
};
const TARGETS: Record<string, Record<string, unknown>> = {
  home: { "total-blocking-time": ["error", { maxNumericValue: 100 }], "largest-contentful-paint": ["error", { maxNumericValue: 1800 }] },
  video: { "cumulative-layout-shift": ["error", { maxNumericValue: 0.01 }] },
};

interface Row {
  theme: Theme;
  page: string;
  runs: number;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  si: number;
  perfRuns: number[];
  tbtRuns: number[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function lhci(args: string[], cwd: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [lhciCli(), ...args], { cwd, stdio: "inherit", env: { ...process.env, CHROME_PATH: CHROMIUM } });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** Loads each page once as Lighthouse's phone would, so the first measured run finds warm caches and rendered images. */
async function warm(origin: string, pages: AuditedPage[], session: string) {
  const { browser, close } = await launchBrowser({ chromium: { executablePath: CHROMIUM, headless: true } });
  try {
    for (const theme of themes) {
      for (const page of pages) {
        const tab = await browser.newPage();
        await tab.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
        await tab.setExtraHTTPHeaders({ Cookie: await cookieHeader(page.signedIn ? session : null, theme) });
        await tab.goto(`${origin}${page.path}`, { waitUntil: "networkidle0" });
        await tab.close();
      }
    }
  } finally {
    await close();
  }
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, "build", "server.js"))) throw new Error("No build/server.js: run `npm run build` first.");
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });

  const dataDir = tempDir("lectern-lighthouse-");
  process.stdout.write("Seeding the demo… ");
  const seeded = spawnSync(process.execPath, ["--import", "tsx", "scripts/seed.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: "utf8",
  });
  if (seeded.status !== 0) throw new Error(`seeding failed:\n${seeded.stdout}${seeded.stderr}`);
  console.log("done.");
  const server = await startServer({ dataDir });
  const origin = `http://${HOST}:${server.port}`;
  const failures: string[] = [];
  const rows: Row[] = [];
  try {
    const { pages: all, session } = auditedPages(server);
    const pages = all.filter((p) => !only || only.includes(p.name));
    console.log(`Server on ${origin}; warming ${pages.length} pages in ${themes.join(" and ")}…`);
    await warm(origin, pages, session);

    for (const theme of themes) {
      for (const signedIn of [false, true]) {
        const group = pages.filter((p) => p.signedIn === signedIn);
        if (!group.length) continue;
        const name = `${theme}-${signedIn ? "learner" : "visitor"}`;
        const work = tempDir("lectern-lhci-");
        const config = {
          ci: {
            collect: {
              url: group.map((p) => `${origin}${p.path}`),
              numberOfRuns: RUNS,
              chromePath: CHROMIUM,
              settings: {
                // Lighthouse's default: the mobile preset with simulated throttling (Lantern).
                chromeFlags: "--no-sandbox --disable-gpu --disable-dev-shm-usage",
                extraHeaders: { Cookie: await cookieHeader(signedIn ? session : null, theme) },
              },
            },
            assert: {
              assertMatrix: group.map((p) => ({
                matchingUrlPattern: `^${escapeRegExp(`${origin}${p.path}`)}$`,
                aggregationMethod: "median",
                assertions: { ...EVERY_PAGE, ...(TARGETS[p.name] ?? {}) },
              })),
            },
            upload: { target: "filesystem", outputDir: path.join(ARTIFACTS, name) },
          },
        };
        const rc = path.join(work, "lighthouserc.json");
        fs.writeFileSync(rc, JSON.stringify(config, null, 2));
        console.log(`\n=== ${name}: ${group.map((p) => p.name).join(", ")} (${RUNS} run${RUNS === 1 ? "" : "s"} each)`);
        if ((await lhci(["collect", `--config=${rc}`], work)) !== 0) {
          failures.push(`${name}: lhci collect failed`);
          continue;
        }
        if ((await lhci(["assert", `--config=${rc}`], work)) !== 0) failures.push(`${name}: assertions failed (above)`);
        await lhci(["upload", `--config=${rc}`], work);

        const lhrs = fs
          .readdirSync(path.join(work, ".lighthouseci"))
          .filter((f) => /^lhr-.*\.json$/.test(f))
          .map((f) => JSON.parse(fs.readFileSync(path.join(work, ".lighthouseci", f), "utf8")));
        for (const page of group) {
          const runs = lhrs.filter((lhr) => lhr.requestedUrl === `${origin}${page.path}`);
          const score = (id: string) => median(runs.map((lhr) => Math.round((lhr.categories[id]?.score ?? 0) * 100)));
          const metric = (id: string) => median(runs.map((lhr) => lhr.audits[id]?.numericValue ?? NaN));
          rows.push({
            theme,
            page: page.name,
            runs: runs.length,
            performance: score("performance"),
            accessibility: score("accessibility"),
            bestPractices: score("best-practices"),
            seo: score("seo"),
            fcp: metric("first-contentful-paint"),
            lcp: metric("largest-contentful-paint"),
            tbt: metric("total-blocking-time"),
            cls: metric("cumulative-layout-shift"),
            si: metric("speed-index"),
            perfRuns: runs.map((lhr) => Math.round(lhr.categories.performance.score * 100)),
            tbtRuns: runs.map((lhr) => Math.round(lhr.audits["total-blocking-time"].numericValue)),
          });
        }
      }
    }
  } finally {
    await server.stop();
    removeTempDirs();
  }

  const table = [
    "| theme | page | runs | perf (each run) | a11y | BP | SEO | FCP ms | LCP ms | TBT ms (each run) | CLS | SI ms |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map(
      (r) =>
        `| ${r.theme} | ${r.page} | ${r.runs} | ${r.performance} (${r.perfRuns.join(", ")}) | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ` +
        `${Math.round(r.fcp)} | ${Math.round(r.lcp)} | ${Math.round(r.tbt)} (${r.tbtRuns.join(", ")}) | ${r.cls.toFixed(3)} | ${Math.round(r.si)} |`,
    ),
  ].join("\n");
  const when = new Date().toISOString();
  fs.writeFileSync(
    path.join(ARTIFACTS, "summary.md"),
    `# Lighthouse, ${when}\n\nMedians of ${RUNS} run(s) per page (mobile preset, simulated throttling).\n\n${table}\n\n${failures.length ? failures.map((f) => `- ${f}`).join("\n") : "All assertions passed."}\n`,
  );
  fs.writeFileSync(path.join(ARTIFACTS, "summary.json"), JSON.stringify({ when, runs: RUNS, rows, failures }, null, 2));
  console.log(`\n${table}\n\nReports: ${path.relative(ROOT, ARTIFACTS)}/`);
  if (failures.length) {
    console.error(`\nnpm run lighthouse: ${failures.join("; ")}`);
    process.exitCode = 1;
  } else console.log("All assertions passed.");
}

await main();
