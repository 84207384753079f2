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
 * @param {import('@remix-run/dev').DefineRoutesFunction} defineRoutes
 */
export function pages(defineRoutes) {
  return defineRoutes((route) => {
    /** route(path, file, options, children) for a file under app/pages/; an `index.tsx` is an index route. */
    const page = (path, file, options = {}, children) =>
      route(path, `pages/${file}`, { ...options, index: /(^|\/)index\.tsx?$/.test(file) }, children);
    /** A module of app/pages/organization/ mounted at `prefix`, with an id saying where. */
    const shared = (prefix) => (path, file, children) =>
      page(path, `organization/${file}`, { id: `pages/${prefix}/${file.replace(/\.tsx?$/, "")}` }, children);

    const organization = (area) => {
      const screen = shared(`${area}/organizations/$id`);
      screen("organizations/:id", "_layout.tsx", () => {
        screen(undefined, "index.tsx");
        screen(":tab", "$tab.tsx");
        screen("carousels", "carousels/index.tsx");
        screen("carousels/:carouselId", "carousels/$carouselId/index.tsx");
        screen("carousels/:carouselId/delete", "carousels/$carouselId/delete.tsx");
        screen("categories", "categories/index.tsx");
        screen("categories/:categoryId", "categories/$categoryId/index.tsx");
        screen("categories/:categoryId/delete", "categories/$categoryId/delete.tsx");
        screen("certificate-templates", "certificate-templates/index.tsx");
        screen("certificate-templates/:certificateTemplateId", "certificate-templates/$certificateTemplateId/index.tsx");
        screen("certificate-templates/:certificateTemplateId/delete", "certificate-templates/$certificateTemplateId/delete.tsx");
        screen("courses", "courses/index.tsx");
        screen("courses/create", "courses/create.tsx");
        screen("courses/:courseId", "courses/$courseId/index.tsx");
        screen("courses/:courseId/delete", "courses/$courseId/delete.tsx");
        screen("courses/:courseId/assignments", "courses/$courseId/assignments.tsx");
        screen("courses/:courseId/lessons/:lessonId", "courses/$courseId/lessons/$lessonId.tsx");
        screen("courses/:courseId/lessons/:lessonId/scorm", "courses/$courseId/lessons/$lessonId/scorm.tsx");
        // Issue 35: a video lesson's caption tracks.
        screen("courses/:courseId/lessons/:lessonId/captions", "courses/$courseId/lessons/$lessonId/captions.tsx");
        screen("groups", "groups/index.tsx");
        screen("groups/create", "groups/create.tsx");
        screen("groups/:groupId", "groups/$groupId/index.tsx");
        screen("groups/:groupId/delete", "groups/$groupId/delete.tsx");
        screen("groups/:groupId/assignments", "groups/$groupId/assignments.tsx");
        screen("jobs/:jobId", "jobs/$jobId.tsx");
        screen("leaderboard", "leaderboard.tsx");
        screen("quizzes", "quizzes/index.tsx");
        screen("quizzes/create", "quizzes/create.tsx");
        screen("quizzes/:quizId", "quizzes/$quizId/index.tsx");
        screen("quizzes/:quizId/delete", "quizzes/$quizId/delete.tsx");
        screen("quizzes/:quizId/export", "quizzes/$quizId/export.ts");
        screen("sso", "sso/index.tsx");
        screen("sso/:driverId", "sso/$driverId.tsx");
        users(screen);
        if (area === "admin") {
          page("api", "admin/organizations/$id/api.tsx");
          page("delete", "admin/organizations/$id/delete.tsx");
        }
      });
    };
    /** The users screens, at `users` below where `screen` mounts. */
    const users = (screen) => {
      screen("users", "users/index.tsx");
      screen("users/create", "users/create.tsx");
      screen("users/:userId", "users/$userId/index.tsx");
      screen("users/:userId/delete", "users/$userId/delete.tsx");
    };

    // The learner's side and the pages anyone may open.
    page(undefined, "index.tsx");
    page("*", "$.tsx");
    page("welcome", "welcome.tsx");
    page("search", "search.tsx");
    page("history", "history.tsx");
    page("language", "language.ts");
    page("theme", "theme.ts");
    page("leaderboard", "leaderboard.tsx");
    page("leaderboard/visibility", "leaderboard/visibility.tsx");
    // Reminders by e-mail (issue 34): one-click unsubscribe (RFC 8058) and the profile's switch.
    page("reminders/unsubscribe", "reminders/unsubscribe.tsx");
    page("reminders/subscription", "reminders/subscription.tsx");
    page("carousels/:id?", "carousels/$id.tsx");
    page("categories", "categories/index.tsx");
    page("categories/:id", "categories/$id.tsx");
    page("courses/:id", "courses/$id/index.tsx");
    page("courses/:id/lessons", "courses/$id/lessons/index.tsx");
    page("courses/:id/lessons/:lessonId", "courses/$id/lessons/$lessonId.tsx");
    page("groups", "groups/index.tsx");
    page("groups/:groupId", "groups/$groupId.tsx");
    page("groups/:groupId/assignments", "groups/$groupId/assignments.tsx");
    page("quizzes/:quizId", "quizzes/$quizId.tsx");
    page("certificates/verify", "certificates/verify/index.tsx");
    page("certificates/verify/:id", "certificates/verify/$id.tsx");
    page("badges/assertions/:uid", "badges/assertions/$uid.ts");
    page("badges/classes/:id", "badges/classes/$id.ts");
    page("badges/images/:id", "badges/images/$id.ts");
    page("badges/issuer", "badges/issuer.ts");
    page("profile", "profile/_layout.tsx", {}, () => {
      page(undefined, "profile/index.tsx");
      page("bookmarks", "profile/bookmarks.tsx");
      page("certificates", "profile/certificates/index.tsx");
      page("certificates/:id", "profile/certificates/$id.tsx");
      page("security", "profile/security.tsx");
      page("settings", "profile/settings.tsx");
    });

    // Signing in.
    page("auth", "auth/index.tsx");
    page("auth/login", "auth/login.tsx");
    page("auth/logout", "auth/logout.tsx");
    page("auth/magic", "auth/magic.tsx");
    page("auth/password", "auth/password.tsx");
    page("auth/redirect", "auth/redirect.tsx");
    page("auth/no-access", "auth/no-access.tsx");
    page("auth/2fa/confirm", "auth/2fa/confirm.tsx");
    page("auth/reset", "auth/reset/index.tsx");
    page("auth/reset/:email/:token?", "auth/reset/$email.tsx");
    page("auth/sso/:driver/redirect", "auth/sso/$driver/redirect.tsx");
    page("auth/sso/:driver?/callback", "auth/sso/$driver/callback.tsx");

    // Super-admins, on the platform host.
    page("admin", "admin/_layout.tsx", {}, () => {
      page(undefined, "admin/index.tsx");
      page("organizations", "admin/organizations/index.tsx");
      organization("admin");
      page("users", "admin/users/index.tsx");
      page("users/:id", "admin/users/$id.tsx");
    });

    // An organization's admins, on its host.
    page("dashboard", "dashboard/_layout.tsx", {}, () => {
      page(undefined, "dashboard/index.tsx");
      page("analytics", "dashboard/analytics.tsx");
      page("analytics/export", "dashboard/analytics/export.ts");
      page("settings", "dashboard/settings.tsx");
      page("organizations", "dashboard/organizations/index.tsx");
      organization("dashboard");
      users(shared("dashboard"));
      page("users/settings", "dashboard/users/settings.tsx");
      // The audit of what admins did (issue 44).
      page("users/audit", "dashboard/users/audit.tsx");
      page("users/import", "dashboard/users/import/index.tsx");
      page("users/import/:importId", "dashboard/users/import/$importId.tsx");
      // Compliance report (issue 34).
      page("compliance", "dashboard/compliance/index.tsx");
      page("compliance/people", "dashboard/compliance/people.tsx");
      page("compliance/export", "dashboard/compliance/export.ts");
    });
  });
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
