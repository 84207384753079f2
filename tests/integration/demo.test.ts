import Database from "better-sqlite3";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { request } from "../helpers/http";
import { seedDemoInto } from "../helpers/seed";
import { startInProcess } from "../helpers/in-process";
import { makeDataDir } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * The demo that `npm start` seeds (through `npm run seed`) into a data directory with no organizations
 * (issue 18 "A rich demo"). The run's template (tests/setup/demo-template.ts) is a demo seeded by
 * `npm run seed` in its own process as of NOW; seeding again the same way as of the same moment must give
 * the same demo.
 */
const TEMPLATE = process.env.LECTERN_TEST_TEMPLATE!;
const NOW = new Date(process.env.LECTERN_TEST_TEMPLATE_NOW!);

function seededAt(now: Date) {
  const dataDir = makeDataDir({ empty: true });
  seedDemoInto(dataDir, now.toISOString());
  return dataDir;
}

function dump(dataDir: string, organizationId: number) {
  const db = new Database(path.join(dataDir, `org-${organizationId}`, "db.sqlite"), { readonly: true });
  try {
    return {
      // Accounts and rows made "now" (the demo's own accounts, courses) carry the seeding's real time.
      users: db
        .prepare(
          "select id, email, first_name, last_name, role, case when email like '%.%.%@%' then created_at end as joined from users order by id",
        )
        .all(),
      progress: db.prepare("select user_id, lesson_id, watched_seconds, completed_at from lesson_progress order by id").all(),
      completions: db.prepare("select user_id, course_id, completed_at from course_completions order by user_id, course_id").all(),
      watch: db.prepare("select user_id, day, seconds from watch_time_daily order by user_id, day").all(),
      lessons: db.prepare("select course_id, title, kind, file_id is not null as has_file from lessons order by id").all(),
      files: db.prepare("select kind, mime, name, sha256 from files order by id").all(),
      assignments: db
        .prepare("select course_id, target, group_id, user_id, due_kind, due_date, due_days, created_at from assignments order by id")
        .all(),
      assignmentPeople: db
        .prepare("select assignment_id, user_id, assigned_at, due_on, completed_at from assignment_people order by assignment_id, user_id")
        .all(),
    };
  } finally {
    db.close();
  }
}

describe("the demo", () => {
  it("is the same every time for the same moment, with content and fifteen months of learning", () => {
    expect(TEMPLATE, "the run's demo template").toBeTruthy();
    expect(NOW.getTime(), "the template's moment").not.toBeNaN();
    const a = dump(TEMPLATE, 1);
    const b = dump(seededAt(NOW), 1);
    expect(b).toEqual(a);

    const learners = a.users.filter((u: any) => u.role === "learner");
    // The demo learner, 200 generated ones who joined in the last 120 days, and analytics' earlier cohort of 90
    // who joined 4 to 15 months ago (scripts/demo/analytics.ts).
    expect(learners.length).toBe(291);
    const joined = learners.filter((u: any) => u.joined !== null).map((u: any) => u.joined * 1000);
    expect(joined.length).toBe(290);
    expect(joined.filter((t: number) => t > NOW.getTime() - 120 * 86_400_000).length).toBe(200);
    expect(Math.min(...joined)).toBeGreaterThan(NOW.getTime() - 451 * 86_400_000);
    expect(Math.max(...joined)).toBeLessThanOrEqual(NOW.getTime());
    expect(a.completions.length).toBeGreaterThan(50);
    expect(a.progress.length).toBeGreaterThan(300);
    expect(new Set(a.watch.map((w: any) => w.day)).size).toBeGreaterThan(60); // activity spread over the months
    // Every published kind of content: videos, text and image lessons; covers, PDFs and clips in the library.
    expect([...new Set(a.lessons.map((l: any) => l.kind))]).toEqual(expect.arrayContaining(["video", "text", "image", "scorm", "quiz"]));
    expect([...new Set(a.files.map((f: any) => f.mime))]).toEqual(expect.arrayContaining(["image/webp", "video/webm", "application/pdf"]));
    // Compliance assignments (issue 34): groups and one person, due in the past and the future, some people done.
    expect(a.assignments.map((x: any) => x.target)).toEqual(expect.arrayContaining(["group", "person"]));
    const today = NOW.toISOString().slice(0, 10);
    expect(a.assignmentPeople.some((p: any) => p.due_on < today && p.completed_at === null)).toBe(true);
    expect(a.assignmentPeople.some((p: any) => p.due_on > today && p.completed_at === null)).toBe(true);
    expect(a.assignmentPeople.some((p: any) => p.completed_at !== null)).toBe(true);
  }, 180_000);

  it("shows a learner carousels, episodes to watch, a video that plays and a PDF to download", async () => {
    // The run's template is what `npm run seed` makes; the server only serves it.
    const server = await startInProcess({ dataDir: makeDataDir() });
    try {
      const learner = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "learner@nordlys.test", kind: "web" }));
      const home = await request(server.port, "nordlys.localhost", "/", { headers: { Cookie: learner } });
      expect(home.body).toContain("Kom godt i gang");
      expect(home.body).toContain("Populært lige nu");

      const db = new Database(path.join(server.dataDir, "org-2", "db.sqlite"), { readonly: true });
      const course = db.prepare("select id from courses where title = ?").get("Førstehjælp på arbejdspladsen") as { id: number };
      const video = db
        .prepare("select id from lessons where course_id = ? and kind = 'video' order by position limit 1")
        .get(course.id) as { id: number };
      const handbook = db.prepare("select id from courses where title = ?").get("Medarbejderhåndbog") as { id: number };
      db.close();

      const coursePage = await request(server.port, "nordlys.localhost", `/courses/${course.id}`, { headers: { Cookie: learner } });
      expect(coursePage.body).toContain("Hjertestop");
      expect(coursePage.body).toContain("Førstehjælpskort");

      const player = await request(server.port, "nordlys.localhost", `/courses/${course.id}/lessons/${video.id}`, {
        headers: { Cookie: learner },
      });
      const src = /<video[^>]*src="([^"]+)"|<source[^>]*src="([^"]+)"/.exec(player.body);
      expect(src).not.toBeNull();
      const clip = await request(server.port, "nordlys.localhost", (src![1] ?? src![2]).replace(/&amp;/g, "&"), {
        headers: { Range: "bytes=0-3" },
      });
      expect(clip.status).toBe(206);
      expect(clip.raw.equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]))).toBe(true); // WebM
      // Issue 35: Danish captions by default (and English), and the search finds a word spoken in the video.
      expect(player.body).toMatch(/<track kind="captions" src="[^"]+" srcLang="da" label="Dansk" default=""/);
      expect(player.body).toMatch(/<track kind="captions" src="[^"]+" srcLang="en" label="English"/);
      const spoken = await request(server.port, "nordlys.localhost", "/search?q=hjertestarteren", { headers: { Cookie: learner } });
      expect(spoken.body).toContain(`href="/courses/${course.id}/lessons/${video.id}?t=`);

      // Acme's learner has one course overdue, one due soon and one done, first on their home (issue 34).
      const acmeLearner = await cookieFor(insertSession(server, { organizationId: 1 }, { email: "learner@acme.test", kind: "web" }));
      const acmeHome = (await request(server.port, "acme.localhost", "/", { headers: { Cookie: acmeLearner } })).body;
      const due = acmeHome.slice(acmeHome.indexOf('data-testid="due-soon"'), acmeHome.indexOf('data-testid="featured"'));
      expect([...due.matchAll(/data-course="([^"]+)" data-state="([^"]+)"/g)].map((m) => [m[1], m[2]])).toEqual([
        ["Workplace Safety Essentials", "overdue"],
        ["Data Protection Basics", "not_started"],
        ["Welcome to Acme", "done"],
      ]);

      const download = await request(server.port, "nordlys.localhost", `/courses/${handbook.id}`, { headers: { Cookie: learner } });
      const pdfUrl = /href="(\/files\/[^"]+)"/.exec(download.body);
      expect(pdfUrl).not.toBeNull();
      const pdf = await request(server.port, "nordlys.localhost", pdfUrl![1].replace(/&amp;/g, "&"));
      expect(pdf.status).toBe(200);
      expect(pdf.body.startsWith("%PDF-1.4")).toBe(true);
      expect(pdf.body).toContain("Medarbejderh");
    } finally {
      await server.stop();
    }
  }, 60_000);
});
