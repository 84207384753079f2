/**
 * The page routes, all declared here (Remix's file convention is off: `ignoredRouteFiles` below); their
 * modules live in app/pages/, in folders that mirror the URL (README "Layout"). /api is not Remix's: Express
 * hands it to the dispatcher of the declared calls (server/api.ts, app/api/dispatch.server.ts).
 *
 * A module's route id is its file (`pages/courses/$id/index`), except for the screens an organization's
 * admins share with super-admins: app/pages/organization/ is mounted under both /admin/organizations/:id
 * and /dashboard/organizations/:id (and its users screens once more as /dashboard/users), each mount with
 * an id naming where it is (`pages/admin/organizations/$id/courses/index`); the module asks
 * app/kernel/manage.server.ts `areaOf(request)` which area it answers for.
 *
 * The tables below hold one row a page: `[path, file under app/pages/, child rows]` (an `index.tsx` is an
 * index route, a path left undefined a layout's index), or `shared(prefix, rows)` for modules of
 * app/pages/organization/ mounted at `prefix`.
 */

/** @typedef {[string | undefined, string, Row[]?]} Page */
/** @typedef {{ mount: string, rows: Row[] }} Shared */
/** @typedef {Page | Shared} Row */

/**
 * Modules of app/pages/organization/ (files relative to it) mounted at `prefix`, each with an id saying where.
 * @param {string} prefix
 * @param {Row[]} rows
 * @returns {Shared}
 */
const shared = (prefix, rows) => ({ mount: prefix, rows });

/** The users screens, at `users` below where they are mounted. @type {Page[]} */
const USERS = [
  ["users", "users/index.tsx"],
  ["users/create", "users/create.tsx"],
  ["users/:userId", "users/$userId/index.tsx"],
  ["users/:userId/delete", "users/$userId/delete.tsx"],
  // A person, whole (issue 50).
  ["users/:userId/overview", "users/$userId/overview.tsx"],
];

/** An organization's screens, below its layout (app/pages/organization/). @type {Page[]} */
const ORGANIZATION = [
  [undefined, "index.tsx"],
  [":tab", "$tab.tsx"],
  ["carousels", "carousels/index.tsx"],
  ["carousels/:carouselId", "carousels/$carouselId/index.tsx"],
  ["carousels/:carouselId/delete", "carousels/$carouselId/delete.tsx"],
  ["categories", "categories/index.tsx"],
  ["categories/:categoryId", "categories/$categoryId/index.tsx"],
  ["categories/:categoryId/delete", "categories/$categoryId/delete.tsx"],
  ["certificate-templates", "certificate-templates/index.tsx"],
  ["certificate-templates/:certificateTemplateId", "certificate-templates/$certificateTemplateId/index.tsx"],
  ["certificate-templates/:certificateTemplateId/delete", "certificate-templates/$certificateTemplateId/delete.tsx"],
  // Issue 50: the issued certificates, a list of their own beside the templates'.
  ["certificates", "certificates/index.tsx"],
  ["courses", "courses/index.tsx"],
  ["courses/create", "courses/create.tsx"],
  // Bulk actions on courses (issue 50): the confirmation, then the job's page.
  ["courses/bulk", "courses/bulk/index.tsx"],
  ["courses/bulk/:jobId", "courses/bulk/$jobId.tsx"],
  ["courses/:courseId", "courses/$courseId/index.tsx"],
  ["courses/:courseId/delete", "courses/$courseId/delete.tsx"],
  ["courses/:courseId/assignments", "courses/$courseId/assignments.tsx"],
  // Issue 50: the course's learners with their progress.
  ["courses/:courseId/learners", "courses/$courseId/learners.tsx"],
  ["courses/:courseId/lessons/:lessonId", "courses/$courseId/lessons/$lessonId.tsx"],
  ["courses/:courseId/lessons/:lessonId/scorm", "courses/$courseId/lessons/$lessonId/scorm.tsx"],
  // Issue 35: a video lesson's caption tracks.
  ["courses/:courseId/lessons/:lessonId/captions", "courses/$courseId/lessons/$lessonId/captions.tsx"],
  ["groups", "groups/index.tsx"],
  ["groups/create", "groups/create.tsx"],
  ["groups/:groupId", "groups/$groupId/index.tsx"],
  ["groups/:groupId/delete", "groups/$groupId/delete.tsx"],
  ["groups/:groupId/assignments", "groups/$groupId/assignments.tsx"],
  ["jobs/:jobId", "jobs/$jobId.tsx"],
  ["leaderboard", "leaderboard.tsx"],
  // Issue 47: the organization's Learning Record Store, its credentials and statements.
  ["lrs", "lrs/index.tsx"],
  ["lrs/statements", "lrs/statements/index.tsx"],
  ["lrs/statements/export", "lrs/statements/export.ts"],
  ["lrs/statements/:statementId", "lrs/statements/$statementId.tsx"],
  // Issue 49: learning paths, their steps and analytics.
  ["paths", "paths/index.tsx"],
  ["paths/:pathId", "paths/$pathId/index.tsx"],
  ["paths/:pathId/delete", "paths/$pathId/delete.tsx"],
  ["paths/:pathId/report", "paths/$pathId/report.tsx"],
  ["paths/:pathId/export", "paths/$pathId/export.ts"],
  ["quizzes", "quizzes/index.tsx"],
  ["quizzes/create", "quizzes/create.tsx"],
  ["quizzes/:quizId", "quizzes/$quizId/index.tsx"],
  ["quizzes/:quizId/delete", "quizzes/$quizId/delete.tsx"],
  ["quizzes/:quizId/export", "quizzes/$quizId/export.ts"],
  ["sso", "sso/index.tsx"],
  ["sso/:driverId", "sso/$driverId.tsx"],
  ...USERS,
];

/**
 * An organization's layout and screens in `area` (admin or dashboard), then the area's own pages beside them.
 * @param {string} area
 * @param {Page[]} own
 * @returns {Shared}
 */
const organization = (area, own = []) => {
  const prefix = `${area}/organizations/$id`;
  return shared(prefix, [["organizations/:id", "_layout.tsx", [shared(prefix, ORGANIZATION), ...own]]]);
};

/** Every page. @type {Row[]} */
const PAGES = [
  // The learner's side and the pages anyone may open.
  [undefined, "index.tsx"],
  ["*", "$.tsx"],
  ["welcome", "welcome.tsx"],
  ["search", "search.tsx"],
  ["history", "history.tsx"],
  ["language", "language.ts"],
  ["theme", "theme.ts"],
  ["leaderboard", "leaderboard.tsx"],
  ["leaderboard/visibility", "leaderboard/visibility.tsx"],
  // Reminders by e-mail (issue 34): one-click unsubscribe (RFC 8058) and the profile's switch.
  ["reminders/unsubscribe", "reminders/unsubscribe.tsx"],
  ["reminders/subscription", "reminders/subscription.tsx"],
  ["carousels/:id?", "carousels/$id.tsx"],
  ["categories", "categories/index.tsx"],
  ["categories/:id", "categories/$id.tsx"],
  ["courses/:id", "courses/$id/index.tsx"],
  ["courses/:id/lessons", "courses/$id/lessons/index.tsx"],
  ["courses/:id/lessons/:lessonId", "courses/$id/lessons/$lessonId.tsx"],
  // Learning paths (issue 49): every path a person sees, and one path's steps.
  ["paths", "paths/index.tsx"],
  ["paths/:id", "paths/$id.tsx"],
  ["groups", "groups/index.tsx"],
  ["groups/:groupId", "groups/$groupId.tsx"],
  ["groups/:groupId/assignments", "groups/$groupId/assignments.tsx"],
  ["quizzes/:quizId", "quizzes/$quizId.tsx"],
  ["certificates/verify", "certificates/verify/index.tsx"],
  ["certificates/verify/:id", "certificates/verify/$id.tsx"],
  ["badges/assertions/:uid", "badges/assertions/$uid.ts"],
  ["badges/classes/:id", "badges/classes/$id.ts"],
  ["badges/images/:id", "badges/images/$id.ts"],
  ["badges/issuer", "badges/issuer.ts"],
  [
    "profile",
    "profile/_layout.tsx",
    [
      [undefined, "profile/index.tsx"],
      ["bookmarks", "profile/bookmarks.tsx"],
      ["certificates", "profile/certificates/index.tsx"],
      ["certificates/:id", "profile/certificates/$id.tsx"],
      // The person's own data as one JSON file (GDPR Art. 15 and 20; issue 47).
      ["data", "profile/data.ts"],
      ["security", "profile/security.tsx"],
      ["settings", "profile/settings.tsx"],
    ],
  ],

  // Signing in.
  ["auth", "auth/index.tsx"],
  ["auth/login", "auth/login.tsx"],
  ["auth/logout", "auth/logout.tsx"],
  ["auth/magic", "auth/magic.tsx"],
  ["auth/password", "auth/password.tsx"],
  ["auth/redirect", "auth/redirect.tsx"],
  ["auth/no-access", "auth/no-access.tsx"],
  ["auth/2fa/confirm", "auth/2fa/confirm.tsx"],
  ["auth/reset", "auth/reset/index.tsx"],
  ["auth/reset/:email/:token?", "auth/reset/$email.tsx"],
  ["auth/sso/:driver/redirect", "auth/sso/$driver/redirect.tsx"],
  ["auth/sso/:driver?/callback", "auth/sso/$driver/callback.tsx"],

  // Super-admins, on the platform host.
  [
    "admin",
    "admin/_layout.tsx",
    [
      [undefined, "admin/index.tsx"],
      ["organizations", "admin/organizations/index.tsx"],
      organization("admin", [
        ["api", "admin/organizations/$id/api.tsx"],
        ["delete", "admin/organizations/$id/delete.tsx"],
      ]),
      ["users", "admin/users/index.tsx"],
      ["users/:id", "admin/users/$id.tsx"],
    ],
  ],

  // An organization's admins, on its host.
  [
    "dashboard",
    "dashboard/_layout.tsx",
    [
      [undefined, "dashboard/index.tsx"],
      ["analytics", "dashboard/analytics.tsx"],
      ["analytics/export", "dashboard/analytics/export.ts"],
      ["settings", "dashboard/settings.tsx"],
      ["organizations", "dashboard/organizations/index.tsx"],
      organization("dashboard"),
      shared("dashboard", USERS),
      ["users/settings", "dashboard/users/settings.tsx"],
      // The audit of what admins did (issue 44).
      ["users/audit", "dashboard/users/audit.tsx"],
      ["users/audit/export", "dashboard/users/audit/export.ts"],
      ["users/import", "dashboard/users/import/index.tsx"],
      ["users/import/:importId", "dashboard/users/import/$importId.tsx"],
      // Bulk actions on people (issue 50).
      ["users/bulk", "dashboard/users/bulk/index.tsx"],
      ["users/bulk/:jobId", "dashboard/users/bulk/$jobId.tsx"],
      // Compliance report (issue 34).
      ["compliance", "dashboard/compliance/index.tsx"],
      ["compliance/people", "dashboard/compliance/people.tsx"],
      ["compliance/export", "dashboard/compliance/export.ts"],
    ],
  ],
];

/**
 * Declares `rows` with Remix's `route` (`mount`: the prefix of the shared modules' ids, when they are some).
 * @param {(path: string | undefined, file: string, options: { id?: string, index: boolean }, children?: () => void) => void} route Remix's `route` (of `defineRoutes`)
 * @param {Row[]} rows
 * @param {string} [mount]
 */
function declare(route, rows, mount) {
  for (const row of rows) {
    if (!Array.isArray(row)) {
      declare(route, row.rows, row.mount);
      continue;
    }
    const [path, file, children] = row;
    const module = mount ? `organization/${file}` : file;
    const options = mount ? { id: `pages/${mount}/${file.replace(/\.tsx?$/, "")}` } : {};
    route(path, `pages/${module}`, { ...options, index: /(^|\/)index\.tsx?$/.test(module) }, children && (() => declare(route, children)));
  }
}

/** @param {import('@remix-run/dev').UNSAFE_DefineRoutesFunction} defineRoutes */
export function pages(defineRoutes) {
  return defineRoutes((route) => declare(route, PAGES));
}

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // No route from file names: a file in app/routes/ would not be served.
  ignoredRouteFiles: ["**/*"],
  routes: pages,
  serverModuleFormat: "esm",
  serverBuildPath: "build/index.js",
  assetsBuildDirectory: "public/build",
  publicPath: "/build/",
  // Code outside app/ that the server build imports (db/, server/ types) is bundled like app code.
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
  watchPaths: ["db/**/*.ts", "locales/**/*.json"],
};
