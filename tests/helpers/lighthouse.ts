import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import type { Flags, Result, RunnerResult } from "lighthouse";
import { themeCookie } from "../../app/utils/preferences.server";
import { prepareTour } from "./learner-tour";
import type { ServerAddress } from "./server";
import { cookieFor, execTenant, insertSession } from "./sessions";

/**
 * What `npm run lighthouse` (scripts/lighthouse.ts) and tests/e2e/lighthouse-*.test.ts (through
 * tests/helpers/lighthouse-checks.ts) share: the demo's pages Lighthouse looks at, the cookies that sign a
 * learner in and pick a theme, and Lighthouse itself, the version @lhci/cli 0.14.0 pins
 * (docs/decisions/034-lighthouse.md).
 */
export const HOST = "acme.localhost";
const LEARNER = "learner@acme.test";
export const THEMES = ["light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export interface AuditedPage {
  /** A short name for reports: `visitor-home`, `home`, `course`, `video`, `quiz`, `leaderboard`. */
  name: string;
  path: string;
  /** Seen by the demo's signed-in learner (else by a visitor). */
  signedIn: boolean;
}

/**
 * The pages issue 33 names, on Acme Academy: the visitor's home, then the signed-in learner's home, a
 * course page, a video lesson, a quiz lesson and the leaderboard. The learner comes back to a series with
 * one episode done and the video under way (tests/helpers/learner-tour.ts), has seen the player's
 * instructions, and is signed in by a session row (`session`: its token).
 */
export function auditedPages(server: ServerAddress): { pages: AuditedPage[]; session: string } {
  const tour = prepareTour(server, 1, HOST, LEARNER);
  execTenant(server, 1, "update users set player_instructions_shown_at = unixepoch() where email = ?", LEARNER);
  const db = new Database(path.join(server.dataDir, "org-1", "db.sqlite"), { readonly: true });
  let quiz: { id: number; course_id: number };
  try {
    quiz = db
      .prepare(
        `select l.id, l.course_id from lessons l join courses c on c.id = l.course_id
         where c.published = 1 and l.kind = 'quiz' order by l.id limit 1`,
      )
      .get() as typeof quiz;
  } finally {
    db.close();
  }
  return {
    session: insertSession(server, { organizationId: 1 }, { email: LEARNER, kind: "web" }),
    pages: [
      { name: "visitor-home", path: "/", signedIn: false },
      { name: "home", path: "/", signedIn: true },
      { name: "course", path: tour.pages.course, signedIn: true },
      { name: "video", path: tour.pages.player, signedIn: true },
      { name: "quiz", path: `/courses/${quiz.course_id}/lessons/${quiz.id}`, signedIn: true },
      { name: "leaderboard", path: "/leaderboard", signedIn: true },
    ],
  };
}

/** The Cookie header a browser of this learner (or a visitor) would send with the theme chosen. */
export async function cookieHeader(session: string | null, theme: Theme) {
  const cookies = [(await themeCookie.serialize(theme)).split(";")[0]];
  if (session) cookies.push(await cookieFor(session));
  return cookies.join("; ");
}

/** The `lighthouse` module @lhci/cli runs (12.1.0 under @lhci/cli 0.14.0), for its node API. */
export async function loadLighthouse(): Promise<(url: string, flags: Flags) => Promise<RunnerResult | undefined>> {
  const lhci = createRequire(import.meta.url).resolve("@lhci/cli/package.json");
  const entry = createRequire(lhci).resolve("lighthouse");
  return (await import(pathToFileURL(entry).href)).default;
}

/** Where @lhci/cli's command line lives (`node <it> collect …`). */
export function lhciCli() {
  return path.join(path.dirname(createRequire(import.meta.url).resolve("@lhci/cli/package.json")), "src", "cli.js");
}

/** Each audit of these categories that counts and did not pass, with what it found, for a failure message. */
export function failedAudits(lhr: Result, categories: readonly string[]) {
  const failed: string[] = [];
  for (const id of categories) {
    const category = lhr.categories[id];
    if (!category) {
      failed.push(`${id}: not run`);
      continue;
    }
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
      const items = (audit.details as { items?: unknown[] } | undefined)?.items ?? [];
      const found = items
        .slice(0, 3)
        .map((item) => {
          const it = item as { node?: { snippet?: string; selector?: string }; description?: string; url?: string; source?: string };
          return it.node?.selector ?? it.node?.snippet ?? it.description ?? it.url ?? it.source ?? JSON.stringify(item).slice(0, 120);
        })
        .join(" | ");
      failed.push(`${id}: ${ref.id} (${audit.title})${found ? ` — ${found}` : ""}`);
    }
  }
  return failed;
}
