import fs from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import type { Browser, Page } from "puppeteer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, COLOUR_RULES, describeViolations } from "./axe";
import { clickAndWait, connectBrowser, settled } from "./browser";
import { startInProcess, type InProcessServer } from "./in-process";
import { execTenant, cookieFor, insertSession } from "./sessions";
import { tempDir } from "./temp";

/**
 * axe-core on every management screen (issue 33), shared by the files that check them
 * (tests/e2e/management-accessibility-*.test.ts: /dashboard's own screens, an organization's screens under
 * /dashboard, and /admin's, so that none is the long pole of a run): each page remix.config.js declares under
 * /dashboard (as Acme's organization admin) and /admin (as the super-admin, managing Acme), at 1280 px, in the
 * light theme (from its theme cookie, as docs/decisions/005-language-and-theme.md chooses it) with every rule axe
 * runs by default (best practices included), then shown dark (`showTheme`: the theme cookie changes only the html
 * element's theme, checked once an area) with the rules about colour, all a theme changes (an organization's
 * screens under /admin in the light theme only: `themesOf`): no violation of any impact, and one h1 a page. Pages with an id are opened with a real one from the demo: a
 * course of each kind, a lesson of each kind, a finished and a failed background job, a CSV import's preview.
 * A few moments no address shows by itself (tests/helpers/management-states.ts) are checked as well.
 *
 * The screens are read from remix.config.js, so a new page under /dashboard or /admin is checked without
 * being listed here; tests/e2e/management-accessibility-dashboard.test.ts fails when one has a parameter the
 * demo's ids below do not fill, or when an excluded route is gone.
 */
export const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];
export type Area = "dashboard" | "admin";
export const ORGANIZATION = { id: 1, host: "acme.localhost" };

/** Declared routes that are not screens, each with why. */
export const EXCLUDED: Record<string, string> = {
  "/dashboard/analytics/export": "a CSV download (a resource route without markup)",
  "/dashboard/compliance/export": "a CSV download (a resource route without markup)",
  "/dashboard/users/audit/export": "a CSV download (a resource route without markup)",
  "/dashboard/organizations/:id/quizzes/:quizId/export": "a CSV download (a resource route without markup)",
  "/admin/organizations/:id/quizzes/:quizId/export": "a CSV download (a resource route without markup)",
  "/dashboard/organizations/:id/lrs/statements/export": "a CSV download (a resource route without markup)",
  "/dashboard/organizations/:id/paths/:pathId/export": "a CSV download (a resource route without markup)",
  "/admin/organizations/:id/paths/:pathId/export": "a CSV download (a resource route without markup)",
  "/admin/organizations/:id/lrs/statements/export": "a CSV download (a resource route without markup)",
  // Every tab shown has a route of its own ("checks every tab of an organization's screens" below), so these only answer 404.
  "/dashboard/organizations/:id/:tab": "the fallback for a tab without a route of its own",
  "/admin/organizations/:id/:tab": "the fallback for a tab without a route of its own",
};

/** The demo's ids the screens are opened with (Acme, organization 1). */
export interface Demo {
  carouselId: number;
  categoryId: number;
  certificateTemplateId: number;
  groupId: number;
  quizId: number;
  /** A learning path (issue 49). */
  pathId: number;
  driverId: number;
  userId: number;
  /** A statement of the demo's LRS (scripts/demo/xapi.ts). */
  statementId: string;
  /** One course of each kind the demo has. */
  courses: { id: number; type: string }[];
  /** One lesson of each kind the demo has, with its course. */
  lessons: { id: number; courseId: number; kind: string }[];
  scormLesson: { id: number; courseId: number };
  /** A finished and a failed background job. */
  jobIds: number[];
  /** The demo's finished bulk action on people (issue 50). */
  bulkJobId: number;
  /** The demo's finished bulk action on courses (issue 50). */
  courseBulkJobId: number;
  importId: number;
  /** Courses with assignments (issue 34): the demo's, and a draft assigned here, whose people cannot open it. */
  assignments: { courseId: number; assignmentId: number }[];
}

/** The addresses each declared route is checked at (several when a page differs by what it shows). */
export function addressesOf(pattern: string, demo: Demo): string[] {
  const org = pattern.replace(/:id\b/, String(ORGANIZATION.id));
  const one = (values: Record<string, number | string>) => [
    Object.entries(values).reduce((p, [name, value]) => p.replace(`:${name}`, String(value)), org),
  ];
  if (pattern === "/admin/users/:id") return [`/admin/users/${ORGANIZATION.id}-${demo.userId}`];
  if (pattern.endsWith("/courses/:courseId/lessons/:lessonId/scorm"))
    return one({ courseId: demo.scormLesson.courseId, lessonId: demo.scormLesson.id });
  if (pattern.endsWith("/courses/:courseId/lessons/:lessonId/captions")) {
    const video = demo.lessons.find((l) => l.kind === "video")!;
    return one({ courseId: video.courseId, lessonId: video.id });
  }
  if (pattern.endsWith("/courses/:courseId/lessons/:lessonId"))
    return demo.lessons.flatMap((l) => one({ courseId: l.courseId, lessonId: l.id }));
  if (pattern.endsWith("/courses/:courseId")) return demo.courses.flatMap((c) => one({ courseId: c.id }));
  if (pattern.endsWith("/jobs/:jobId")) return demo.jobIds.flatMap((jobId) => one({ jobId }));
  if (pattern.endsWith("/users/bulk/:jobId")) return one({ jobId: demo.bulkJobId });
  if (pattern.endsWith("/courses/bulk/:jobId")) return one({ jobId: demo.courseBulkJobId });
  // A bulk action on courses: all that match (a category to choose), one ticked course to delete, and nothing chosen.
  if (pattern.endsWith("/courses/bulk"))
    return [`${org}?bulkAction=move&scope=all&state=published`, `${org}?bulkAction=delete&ids=${demo.courses[0].id}`, org];
  // A bulk action's confirmation, for all that match a filter (with a course and its due day to choose) and for
  // one ticked person (a group to choose); a learning path, the invitation mailed again and the export (a link to the
  // CSV); and what it says when nobody was chosen.
  if (pattern.endsWith("/users/bulk"))
    return [
      `${org}?bulkAction=assign_course&scope=all&status=active`,
      `${org}?bulkAction=add_to_group&ids=${demo.userId}`,
      `${org}?bulkAction=assign_path&ids=${demo.userId}`,
      `${org}?bulkAction=resend_invitation&scope=all&role=learner`,
      `${org}?bulkAction=export&scope=all&status=active`,
      org,
    ];
  // A course's assignments: the list (with who cannot open a draft), one assignment's people, and removing one.
  if (pattern.endsWith("/courses/:courseId/assignments")) {
    const [first, ...rest] = demo.assignments;
    const at = one({ courseId: first.courseId })[0];
    return [
      at,
      `${at}?assignment=${first.assignmentId}`,
      `${at}?remove=${first.assignmentId}`,
      ...rest.flatMap((a) => one({ courseId: a.courseId })),
    ];
  }
  return one({
    carouselId: demo.carouselId,
    categoryId: demo.categoryId,
    certificateTemplateId: demo.certificateTemplateId,
    courseId: demo.courses[0].id,
    groupId: demo.groupId,
    quizId: demo.quizId,
    pathId: demo.pathId,
    driverId: demo.driverId,
    userId: demo.userId,
    importId: demo.importId,
    statementId: demo.statementId,
  });
}

/** The URL patterns of the pages remix.config.js declares (layouts left out: their index routes are the pages). */
async function declaredPages(): Promise<string[]> {
  const paths: string[] = [];
  type Route = (p: string | undefined, file: string, options?: unknown, children?: () => void) => void;
  const define = (callback: (route: Route) => void) => {
    const prefix: string[] = [];
    callback((p, _file, options, children) => {
      if (typeof options === "function") children = options as () => void;
      if (children) {
        prefix.push(p ?? "");
        children();
        prefix.pop();
      } else paths.push(`/${[...prefix, p ?? ""].filter(Boolean).join("/")}`);
    });
    return {};
  };
  const config = (await import("../../remix.config.js")) as unknown as { pages: (d: typeof define) => unknown };
  config.pages(define);
  return paths;
}

/** Every page remix.config.js declares under /dashboard and /admin, and the screens of each area (the excluded left out). */
export async function managementScreens() {
  const declared = (await declaredPages()).filter((p) => /^\/(dashboard|admin)(\/|$)/.test(p));
  const screens = (area: Area) => declared.filter((p) => p.startsWith(`/${area}`) && !(p in EXCLUDED));
  return { declared, dashboard: screens("dashboard"), admin: screens("admin") };
}

/**
 * The themes a screen is checked in. An organization's screens under /admin are the ones under /dashboard
 * (app/screens/, mounted twice): where the /dashboard twin is checked in both themes, the /admin one is
 * checked with every rule in the light theme only (its shell's colours are checked on the screens only
 * /admin has). That takes a quarter off the time.
 */
export const themesOf = (pattern: string, dashboard: string[]): readonly Theme[] =>
  pattern.startsWith("/admin/organizations/:id") && dashboard.includes(pattern.replace(/^\/admin/, "/dashboard")) ? ["light"] : THEMES;

function readDemo(server: InProcessServer): Omit<Demo, "jobIds" | "importId" | "assignments"> {
  const db = new Database(path.join(server.dataDir, `org-${ORGANIZATION.id}`, "db.sqlite"), { readonly: true });
  try {
    const first = (table: string) => (db.prepare(`select id from ${table} order by id limit 1`).get() as { id: number }).id;
    return {
      carouselId: first("carousels"),
      categoryId: first("categories"),
      certificateTemplateId: first("certificate_templates"),
      groupId: first("groups"),
      quizId: first("quizzes"),
      pathId: first("learning_paths"),
      bulkJobId: (db.prepare("select id from jobs where kind = 'people.bulk' order by id limit 1").get() as { id: number }).id,
      courseBulkJobId: (db.prepare("select id from jobs where kind = 'courses.bulk' order by id limit 1").get() as { id: number }).id,
      driverId: first("sso_drivers"),
      userId: (db.prepare("select id from users where email = 'learner@acme.test'").get() as { id: number }).id,
      statementId: (db.prepare("select id from xapi_statements order by seq limit 1").get() as { id: string }).id,
      courses: db.prepare("select min(id) as id, type from courses group by type order by type").all() as Demo["courses"],
      lessons: db
        .prepare("select min(id) as id, course_id as courseId, kind from lessons group by kind order by kind")
        .all() as Demo["lessons"],
      scormLesson: db
        .prepare("select id, course_id as courseId from lessons where kind = 'scorm' order by id limit 1")
        .get() as Demo["scormLesson"],
    };
  } finally {
    db.close();
  }
}

/** The server, the browser and the demo's ids of a file, once its beforeAll has run. */
export interface ScreensRun {
  server: InProcessServer;
  browser: Browser;
  demo: Demo;
}

/** A browser context signed in for an area, in a theme, with one page at 1280 px. */
async function areaPage({ server, browser }: Omit<ScreensRun, "demo">, area: Area, theme: Theme): Promise<Page> {
  const host = area === "dashboard" ? ORGANIZATION.host : "localhost";
  const token =
    area === "dashboard"
      ? insertSession(server, { organizationId: ORGANIZATION.id }, { email: "admin@acme.test", kind: "web" })
      : insertSession(server, "platform", { email: "super@lectern.test", kind: "web" });
  const session = await cookieFor(token);
  const chosen = (await createCookie("theme", { path: "/" }).serialize(theme)).split(";")[0];
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  for (const cookie of [session, chosen]) {
    const at = cookie.indexOf("=");
    await page.setCookie({ name: cookie.slice(0, at), value: cookie.slice(at + 1), domain: host, path: "/" });
  }
  return page;
}

/** A CSV file for the import form. */
export function csvFile(content: string) {
  const file = path.join(tempDir("lectern-import-"), "people.csv");
  fs.writeFileSync(file, content);
  return file;
}

export async function chooseFile(page: Page, selector: string, file: string) {
  const input = await page.$(selector);
  await (input as unknown as { uploadFile: (f: string) => Promise<void> }).uploadFile(file);
}
export const CSV_HEADER = "first_name,last_name,phone,email";

/** A CSV import waiting for confirmation, made through the upload form as an admin would. */
async function uploadImport(page: Page, port: number): Promise<number> {
  await page.goto(`http://${ORGANIZATION.host}:${port}/dashboard/users/import`, { waitUntil: "load" });
  await settled(page);
  await chooseFile(
    page,
    "#import-file",
    csvFile(`${CSV_HEADER}\nAnna,Berg,+45 12 34 56 78,anna.berg@example.com\nJonas,,,jonas@example.com\n`),
  );
  await clickAndWait(page, '[data-testid="check-import"]');
  const id = Number(/\/dashboard\/users\/import\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/**
 * What the demo lacks for some screens to show all they can: an API token (the api tab's table), a revoked
 * certificate (its badge and the restore button), a draft assigned to the demo learner (the assignments screen
 * names who cannot open it, and why), a finished and a failed job, and a CSV import's preview.
 */
async function prepareDemo(run: Omit<ScreensRun, "demo">): Promise<Demo> {
  const { server } = run;
  const found = readDemo(server);
  const job = (status: "done" | "failed", result: object | null, error: string | null) =>
    Number(
      execTenant(
        server,
        ORGANIZATION.id,
        "insert into jobs (kind, status, payload, progress, result, error) values ('course.clone', ?, '{}', ?, ?, ?)",
        status,
        status === "done" ? 100 : 40,
        result && JSON.stringify(result),
        error,
      ).lastInsertRowid,
    );
  const now = Math.floor(Date.now() / 1000);
  execTenant(
    server,
    ORGANIZATION.id,
    "insert into api_tokens (user_id, name, token_hash, capabilities, created_at, expires_at) values (?, 'Reporting', 'axe-test', '[\"read:course\"]', ?, ?)",
    1,
    now,
    now + 86_400,
  );
  execTenant(
    server,
    ORGANIZATION.id,
    "update certificates set revoked_at = ?, revoked_reason = 'Issued by mistake' where id = (select min(id) from certificates)",
    now,
  );
  const draft = Number(
    execTenant(
      server,
      ORGANIZATION.id,
      `insert into assignments (course_id, target, user_id, due_kind, due_days, created_at, updated_at)
       select id, 'person', (select id from users where email = 'learner@acme.test'), 'days', 7, ?, ? from courses where published = 0 order by id limit 1`,
      now,
      now,
    ).lastInsertRowid,
  );
  execTenant(
    server,
    ORGANIZATION.id,
    "insert into assignment_people (assignment_id, user_id, assigned_at, due_on) select id, user_id, ?, '2030-01-31' from assignments where id = ?",
    now,
    draft,
  );
  const db = new Database(path.join(server.dataDir, `org-${ORGANIZATION.id}`, "db.sqlite"), { readonly: true });
  let assignments: Demo["assignments"];
  try {
    assignments = db
      .prepare("select course_id as courseId, min(id) as assignmentId from assignments group by course_id order by min(id) = ?, min(id)")
      .all(draft) as Demo["assignments"];
  } finally {
    db.close();
  }
  const page = await areaPage(run, "dashboard", "light");
  const importId = await uploadImport(page, server.port);
  await page.browserContext().close();
  return {
    ...found,
    jobIds: [job("done", { course_id: found.courses[0].id }, null), job("failed", null, "The source course was deleted.")],
    importId,
    assignments,
  };
}

/** The file's server (in this process), the run's browser and the demo as the screens need it, from its beforeAll on. */
export function screensRun(): ScreensRun {
  const run = {} as ScreensRun;
  let closeBrowser: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    run.server = await startInProcess();
    let browser: Browser;
    ({ browser, close: closeBrowser } = await connectBrowser());
    run.browser = browser;
    run.demo = await prepareDemo(run);
  });
  afterAll(async () => {
    await closeBrowser?.();
    await run.server?.stop();
  });
  return run;
}

/**
 * axe-core's violations on the page as it is, and a word if it has not exactly one h1. In the light theme
 * with every rule; in the dark one with the rules about colour, all a theme changes (the markup is the same).
 */
async function problemsOf(page: Page, theme: Theme): Promise<string[]> {
  const found = describeViolations(await axeViolations(page, theme === "light" ? undefined : COLOUR_RULES));
  const h1 = await page.$$eval("h1", (list) => list.length);
  if (h1 !== 1) found.push(`${h1} h1 elements (one wanted)`);
  return found;
}

/**
 * Shows the page in `theme` as the server renders it from the theme cookie (app/root.tsx): the html element's
 * `data-theme` and `theme-*` class and the color-scheme meta; nothing else in the markup depends on the theme but
 * the theme switch's label (`themedMarkup`, checked once an area). Running transitions are finished, so
 * axe-core reads the theme's own colours.
 */
async function showTheme(page: Page, theme: Theme) {
  await page.evaluate(
    (theme, classes) => {
      const html = document.documentElement;
      html.setAttribute("data-theme", theme);
      html.classList.remove(...classes);
      html.classList.add(`theme-${theme}`);
      document.querySelector('meta[name="color-scheme"]')?.setAttribute("content", theme);
      for (const animation of document.getAnimations())
        try {
          animation.finish();
        } catch {
          // an endless animation has no end to jump to
        }
    },
    theme,
    THEME_CLASSES,
  );
}
const THEME_CLASSES = THEMES.map((theme) => `theme-${theme}`);

/**
 * What a theme shows of a page: the html element's theme, and the body's markup without its scripts (the data of
 * the page's first load) and the theme switch (its label names the other theme).
 */
const themedMarkup = (page: Page) =>
  page.evaluate(() => {
    const html = document.documentElement;
    const body = document.body.cloneNode(true) as HTMLElement;
    body.querySelectorAll(".theme-switch, script, link").forEach((element) => element.remove());
    return {
      theme: {
        dataTheme: html.getAttribute("data-theme"),
        className: html.className,
        colorScheme: document.querySelector('meta[name="color-scheme"]')?.getAttribute("content"),
      },
      body: body.innerHTML,
    };
  });

type Router = { navigate: (to: string) => Promise<void>; state: { location: { pathname: string }; errors: unknown } };

/**
 * Opens a screen as someone moving through the area would: the first by loading the document, the next ones
 * through the page's router, as a click on a link does. The markup is the same either way (the browser's
 * render must match the server's for hydration); skipping the document's scripts and axe-core's 500 KiB for
 * each screen takes about 40% off the run. The screen must answer without error (no error boundary).
 */
async function open(page: Page, origin: string, address: string) {
  const inApp = page.url().startsWith(origin) && (await page.evaluate(() => "__remixRouter" in window));
  if (!inApp) {
    const response = await page.goto(`${origin}${address}`, { waitUntil: "load" });
    expect(response?.status(), address).toBe(200);
  } else await page.evaluate((to) => (window as unknown as { __remixRouter: Router }).__remixRouter.navigate(to), address);
  await settled(page);
  const state = await page.evaluate(() => {
    const { location, errors } = (window as unknown as { __remixRouter: Router }).__remixRouter.state;
    return { path: location.pathname, errors: errors ? JSON.stringify(errors) : null };
  });
  expect(state.errors, `${address} (at ${state.path})`).toBeNull();
}

/** A moment of a screen that no address shows by itself, reached in a page signed in for the area. */
export interface ScreenState {
  name: string;
  reach: (page: Page, origin: string, demo: Demo) => Promise<void>;
}

/** An organization's screens (under /dashboard/organizations/:id or /admin/organizations/:id), its layout's index included. */
export const isOrganizationScreen = (pattern: string) => /^\/(dashboard|admin)\/organizations\/:id(\/|$)/.test(pattern);

/**
 * The tests of an area in one file: each of `screens` (each of its addresses, in its themes) and each of
 * `states` (in both themes) has no violation; with `tabsOf` (all the area's screens), every tab of an
 * organization's screens is among them.
 */
export function describeArea(
  run: ScreensRun,
  area: Area,
  {
    screens,
    themes,
    states = [],
    tabsOf,
  }: { screens: string[]; themes: (pattern: string) => readonly Theme[]; states?: ScreenState[]; tabsOf?: string[] },
) {
  describe(`axe-core on /${area}, light and dark`, () => {
    const host = area === "dashboard" ? ORGANIZATION.host : "localhost";
    const origin = () => `http://${host}:${run.server.port}`;
    let page: Page;
    beforeAll(async () => {
      page = await areaPage(run, area, "light");
    });
    afterAll(async () => {
      await page?.browserContext().close();
    });

    /** Runs `reach` in the area's page and collects what axe-core finds there in each theme (both unless told), by `what` and theme. */
    async function inThemes(
      what: string,
      reach: (page: Page) => Promise<void>,
      found: Record<string, string[]>,
      only: readonly Theme[] = THEMES,
    ) {
      await reach(page);
      await settled(page);
      expect(await page.$eval("html", (el) => el.getAttribute("data-theme"))).toBe("light");
      for (const theme of only) {
        if (theme !== "light") await showTheme(page, theme);
        const problems = await problemsOf(page, theme);
        if (theme !== "light") await showTheme(page, "light");
        if (problems.length) found[`${what} (${theme})`] = problems;
      }
    }

    it("shows, from the dark theme's cookie, the light theme's markup with the theme shown dark", async () => {
      const pattern = screens.find((p) => themes(p).includes("dark"))!;
      const address = addressesOf(pattern, run.demo)[0];
      const dark = await areaPage(run, area, "dark");
      try {
        expect((await dark.goto(`${origin()}${address}`, { waitUntil: "load" }))?.status()).toBe(200);
        await settled(dark);
        await open(page, origin(), address);
        await showTheme(page, "dark");
        const markup = await themedMarkup(page);
        await showTheme(page, "light");
        expect(markup.theme).toEqual({ dataTheme: "dark", className: "theme-dark", colorScheme: "dark" });
        expect(markup).toEqual(await themedMarkup(dark));
      } finally {
        await dark.browserContext().close();
      }
    });

    if (tabsOf)
      it("checks every tab of an organization's screens", async () => {
        await page.goto(`${origin()}/${area}/organizations/${ORGANIZATION.id}`, { waitUntil: "load" });
        const tabs = await page.$$eval(".tabs a", (links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
        expect(tabs.length).toBeGreaterThan(8);
        const checked = new Set(tabsOf.flatMap((pattern) => addressesOf(pattern, run.demo)));
        expect(tabs.filter((tab) => !checked.has(tab))).toEqual([]);
      });

    it.each(screens)("finds no violation on %s", async (pattern) => {
      const found: Record<string, string[]> = {};
      for (const address of addressesOf(pattern, run.demo))
        await inThemes(address, (page) => open(page, origin(), address), found, themes(pattern));
      expect(found).toEqual({});
    });

    if (states.length)
      it.each(states)("finds no violation in $name", async ({ name, reach }) => {
        const found: Record<string, string[]> = {};
        await inThemes(name, (page) => reach(page, origin(), run.demo), found);
        expect(found).toEqual({});
      });
  });
}
