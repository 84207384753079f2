import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createCookie } from "@remix-run/node";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtRoutes } from "../helpers/routes";
import { request, type HttpResponse } from "../helpers/http";
import { loginPage } from "../helpers/auth";
import { insertDriver, TEST_SECRET_KEY } from "../helpers/idp";
import { errorLines, ROOT, startServer, type RunningServer } from "../helpers/server";
import { cookieFor, execTenant, insertSession } from "../helpers/sessions";

/**
 * Issue 44, item 4: a page action posted a body that is not a form (JSON, text/plain, nothing, a broken
 * multipart body) answered 500 with a stack trace on stderr. The walk below posts each kind of body to every
 * route that has an action, taken from Remix's route manifest (build/index.js), as a visitor and as someone
 * who may use the page: the organization's admin on its host, the super-admin on the platform's. Every reply
 * is below 500 and nothing is logged as an error; where the action reads its form, a body that is not a form
 * gets 415 and one that cannot be read 400, each with its translated message (app/utils/form-data.server.ts `readForm`).
 *
 * The attacker's reproduction, on the main it was found on:
 *   curl -i -H 'Host: nordlys.localhost' -H 'Content-Type: application/json' -d '{}' http://127.0.0.1:3000/theme
 *   → 500, and "TypeError: Content-Type was not one of "multipart/form-data" or
 *     "application/x-www-form-urlencoded"" with its stack on the server's stderr.
 */
const NORDLYS = "nordlys.localhost";
const PLATFORM = "localhost";

type Role = "visitor" | "admin";
type Locale = Record<string, Record<string, string>>;
const locales = Object.fromEntries(
  ["en", "pl", "da", "no", "sv"].map((lng) => [lng, JSON.parse(fs.readFileSync(path.join(ROOT, "locales", lng, "common.json"), "utf8"))]),
) as Record<string, Locale>;

/** The routes that have an action, as full path patterns (Remix's route manifest of the build under test). */
async function actionRoutes() {
  return (await builtRoutes()).filter((r) => r.module.action).map((r) => ({ pattern: r.pattern, index: Boolean(r.index) }));
}

/** The bodies a browser's form never sends, and one it could (urlencoded, with bytes no field expects). */
const NOT_FORMS = {
  json: { type: "application/json", body: '{"theme":"dark","email":"admin@nordlys.test","List-Unsubscribe":"One-Click"}' },
  "text/plain": { type: "text/plain", body: "theme=dark\r\nList-Unsubscribe=One-Click\r\n" },
  empty: { type: undefined, body: "" },
} as const;
const BROKEN = {
  "multipart, another boundary": {
    type: "multipart/form-data; boundary=declared",
    body: '--other\r\nContent-Disposition: form-data; name="theme"\r\n\r\ndark\r\n--other--\r\n',
  },
  "multipart, truncated": {
    type: "multipart/form-data; boundary=cut",
    body: '--cut\r\nContent-Disposition: form-data; name="theme"\r\n\r\nda',
  },
  "multipart, no boundary": { type: "multipart/form-data", body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n' },
} as const;
const ODD_BYTES = {
  type: "application/x-www-form-urlencoded",
  body: Buffer.concat([
    Buffer.from("intent=%FF%FE&name="),
    Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]),
    Buffer.from("&email=%00%C3%28%ZZ&redirectTo=%E2%82&id=1e999&title=%&&=&theme=%00dark&language=d%00a&off=%80&hidden=tru%C3"),
  ]),
};

let server: RunningServer;

/** One value (`v`) read from Nordlys's database beside the server. */
function tenant(sql: string) {
  const db = new Database(path.join(server.dataDir, "org-2", "db.sqlite"), { readonly: true });
  try {
    return String((db.prepare(sql).get() as Record<string, unknown>).v);
  } finally {
    db.close();
  }
}
/** Sample values for the routes' parameters, in Nordlys (organization 2) unless said otherwise. */
const params: Record<string, string> = {};
/** Routes whose parameter means something else than the organization screens' parameter of the same name. */
const exact: Record<string, () => string> = {
  "/courses/:id": () => `/courses/${params.courseId}`,
  "/courses/:id/lessons/:lessonId": () => `/courses/${params.courseId}/lessons/${params.lessonId}`,
  "/profile/certificates/:id": () => `/profile/certificates/${params.certificateId}`,
  "/admin/users/:id": () => "/admin/users/2-3",
  "/admin/organizations/:id/delete": () => `/admin/organizations/${params.spareOrganization}/delete`,
  "/auth/reset/:email/:token?": () => "/auth/reset/admin%40nordlys.test/not-a-token",
  "/auth/sso/:driver/redirect": () => "/auth/sso/walk/redirect",
};

beforeAll(async () => {
  server = await startServer({ env: { SECRET_KEY: TEST_SECRET_KEY } });
  insertDriver(server, 2, { slug: "walk", issuer: "http://127.0.0.1:1", clientId: "walk", clientSecret: "walk-secret" });
  execTenant(
    server,
    2,
    "insert into user_imports (file_name, content, row_count) values ('walk.csv', 'first_name,last_name,email\nWalk,Er,walk@example.com\n', 1)",
  );
  params.id = "2";
  params.courseId = tenant("select course_id as v from lessons where kind = 'video' order by id limit 1");
  params.lessonId = tenant(`select id as v from lessons where kind = 'video' and course_id = ${params.courseId} order by id limit 1`);
  params.carouselId = tenant("select min(id) as v from carousels");
  params.categoryId = tenant("select min(id) as v from categories");
  params.certificateTemplateId = tenant("select min(id) as v from certificate_templates");
  params.groupId = tenant("select min(id) as v from groups");
  params.quizId = tenant("select min(id) as v from quizzes");
  params.pathId = tenant("select min(id) as v from learning_paths");
  params.userId = tenant("select max(id) as v from users where role = 'learner'");
  params.driverId = tenant("select id as v from sso_drivers where slug = 'walk'");
  params.importId = tenant("select max(id) as v from user_imports");
  // The admin's own certificate (the demo's are its learners'), for the page that renders its PDF again.
  execTenant(
    server,
    2,
    `insert into certificates (public_id, user_id, course_id, issued_for_course_id, template_id, learner_name, course_title, locale, layout, issued_at)
     select 'WALK-0001', (select id from users where email = 'admin@nordlys.test'), course_id, issued_for_course_id, template_id,
       learner_name, course_title, locale, layout, issued_at from certificates order by id limit 1`,
  );
  params.certificateId = tenant("select id as v from certificates where public_id = 'WALK-0001'");
  // The walk's sessions, before the server is asked anything: as many as it sends at once.
  for (const host of [PLATFORM, NORDLYS]) await addSessions(host, WIDTH);
  // An organization of its own for the super-admin's delete page, made as the super-admin makes one.
  const made = await post("admin", PLATFORM, "/admin/organizations?index", {
    type: "application/x-www-form-urlencoded",
    body: new URLSearchParams({ name: "Walk Spare", language: "en", urlPrefix: "walk-spare", adminEmail: "" }).toString(),
  });
  expect(made.status, made.body.slice(0, 500)).toBe(302);
  const platform = new Database(path.join(server.dataDir, "platform.sqlite"), { readonly: true });
  params.spareOrganization = String(
    (platform.prepare("select id from organizations where url_prefix = 'walk-spare'").get() as { id: number }).id,
  );
  platform.close();
});
afterAll(() => server?.stop());

function sample(pattern: string, index: boolean) {
  const made = exact[pattern]?.() ?? pattern.replace(/:(\w+)\??/g, (_, name: string) => params[name] ?? `<${name}>`);
  return index ? `${made}?index` : made;
}

/**
 * The admins' sessions not in use, by host. A request takes one, and gives it back once answered if it
 * still signs its person in: signing out, one of the actions, ends the one it was sent with. Requests sent
 * at once never share one. The first are written before the walk; any more are signed in through the
 * server, so nothing is written beside it while it answers.
 */
const idle: Record<string, Array<{ token: string; cookie: string }>> = { [PLATFORM]: [], [NORDLYS]: [] };
const ADMIN: Record<string, string> = { [PLATFORM]: "super@lectern.test", [NORDLYS]: "admin@nordlys.test" };
const sessionCookie = createCookie("lectern_session", { path: "/" });

/** Sessions written beside the server before it is asked anything. */
async function addSessions(host: string, count: number) {
  for (let i = 0; i < count; i++) {
    const token = insertSession(server, host === PLATFORM ? "platform" : { organizationId: 2 }, { email: ADMIN[host]!, kind: "web" });
    idle[host]!.push({ token, cookie: await cookieFor(token) });
  }
}

async function takeSession(host: string) {
  const kept = idle[host]!.pop();
  if (kept) return kept;
  const { res, cookie } = await loginPage(server, host, ADMIN[host]!);
  if (!cookie) throw new Error(`${ADMIN[host]} could not sign in: ${res.status}`);
  return { token: String(await sessionCookie.parse(cookie)), cookie };
}

/** Read-only handles on the databases the hosts' sessions live in, open for the whole walk. */
const sessionStores = new Map<string, Database.Database>();
afterAll(() => {
  for (const db of sessionStores.values()) db.close();
});

/** Whether a session still signs its person in. */
function signsIn(host: string, token: string) {
  let db = sessionStores.get(host);
  if (!db) {
    db = new Database(path.join(server.dataDir, host === PLATFORM ? "platform.sqlite" : path.join("org-2", "db.sqlite")), {
      readonly: true,
    });
    sessionStores.set(host, db);
  }
  const table = host === PLATFORM ? "platform_sessions" : "sessions";
  const hash = crypto.createHash("sha256").update(token).digest("hex");
  return Boolean(db.prepare(`select 1 from ${table} where token_hash = ? and two_factor_pending = 0`).get(hash));
}

/** A post as a browser on the same site would send it (the cross-site check has its own tests). */
async function post(role: Role, host: string, url: string, body: { type?: string; body: string | Buffer }) {
  const headers: Record<string, string> = { Origin: `http://${host}` };
  if (body.type) headers["Content-Type"] = body.type;
  if (role === "visitor") return request(server.port, host, url, { method: "POST", headers, body: body.body });
  const session = await takeSession(host);
  const res = await request(server.port, host, url, { method: "POST", headers: { ...headers, Cookie: session.cookie }, body: body.body });
  if (signsIn(host, session.token)) idle[host]!.push(session);
  return res;
}

function outcome(res: HttpResponse) {
  const location = String(res.headers.location ?? "");
  if ((res.status === 302 || res.status === 303) && location.startsWith("/auth/login")) return "login";
  return String(res.status);
}

/** Turned away before the action read anything: sign in first, not yours, no such thing. */
const REFUSALS = new Set(["login", "403", "404"]);

/** Whether a reply holds the text of `key` in `lang` (HTML-escaped as React writes it), and a page says it is in `lang`. */
function says(res: HttpResponse, lang: string, ...keys: string[]) {
  const declared = /<html[^>]*\blang="([a-z]{2})"/.exec(res.body)?.[1];
  if (declared && declared !== lang) return false;
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return keys.some((key) => {
    const [group, name] = key.split(".");
    const text = locales[lang]?.[group]?.[name];
    return Boolean(text) && (res.body.includes(text) || res.body.includes(escape(text)));
  });
}

/** The page's own form error: a form's message, in the page (app/components/form.tsx). */
const formError = (res: HttpResponse) => /role="alert"[^>]*>(?:\s*<[^>]+>)*\s*[^<\s]/.test(res.body);

/**
 * What is wrong with one reply, or null. A body that is not a form: 415 saying so (a page that only takes an
 * upload may answer with its own form's message instead); a broken one: 400 saying it could not be read, or the
 * page's own form error; a form with odd bytes: anything but a failure, a 4xx with a message.
 */
function problem(kind: "not a form" | "broken" | "odd bytes", res: HttpResponse, lang: string) {
  if (res.status >= 500) return `${res.status}`;
  if (/\bat [\w.<>]+ \(|TypeError|node_modules/.test(res.body)) return `${res.status} with a stack trace`;
  const got = outcome(res);
  if (REFUSALS.has(got)) return null;
  if (kind === "odd bytes") {
    if (res.status < 400) return null;
    return says(res, lang, "errors.badRequest") || formError(res) ? null : `${res.status} without a message`;
  }
  if (res.status === 415) return says(res, lang, "errors.notAForm") ? null : `415 without its message in ${lang}`;
  if (res.status === 400 && says(res, lang, "errors.badRequest")) return null;
  if ((res.status === 400 || res.status === 422) && formError(res)) return null;
  return `${res.status}${res.headers.location ? ` → ${res.headers.location}` : ""}`;
}

/** How many posts the walk sends at once. */
const WIDTH = 3;

/** Runs `work` over `items`, `width` at a time. */
async function inPool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

describe("every page action, posted a body that is not a form (issue 44, item 4)", () => {
  it("answers 415 or 400 with its translated message (or the page's own form error), never 5xx, and logs no error", async () => {
    const routes = await actionRoutes();
    expect(routes.length).toBeGreaterThan(80);
    const unsampled = routes.map((r) => sample(r.pattern, r.index)).filter((url) => url.includes("<"));
    expect(unsampled, "routes with an action and no sample address: add their parameters above").toEqual([]);

    const visits = routes.flatMap((route) => {
      const host = route.pattern.startsWith("/admin") ? PLATFORM : NORDLYS;
      const url = sample(route.pattern, route.index);
      // Nordlys speaks Danish; the platform's pages, English.
      const lang = host === NORDLYS ? "da" : "en";
      return (["visitor", "admin"] as const).map((role) => ({ ...route, host, url, role, lang }));
    });
    const logFrom = server.output().length;
    const problems: string[] = [];
    const notReached: string[] = [];
    await inPool(visits, WIDTH, async (visit) => {
      const bodies = [
        ...Object.entries(NOT_FORMS).map(([name, body]) => ({ name, body, kind: "not a form" as const })),
        ...Object.entries(BROKEN).map(([name, body]) => ({ name, body, kind: "broken" as const })),
      ];
      for (const { name, body, kind } of bodies) {
        const res = await post(visit.role, visit.host, visit.url, body);
        const found = problem(kind, res, visit.lang);
        if (found) problems.push(`${visit.role} POST ${visit.url} (${name}): ${found}`);
        if (visit.role === "admin" && name === "json" && REFUSALS.has(outcome(res))) notReached.push(`${visit.url}: ${outcome(res)}`);
      }
    });
    // What was refused changed nothing: the things the deletes are about are all still there.
    const gone = Object.entries({
      carousels: params.carouselId,
      categories: params.categoryId,
      certificate_templates: params.certificateTemplateId,
      courses: params.courseId,
      groups: params.groupId,
      quizzes: params.quizId,
      learning_paths: params.pathId,
      users: params.userId,
    })
      .filter(([table, id]) => tenant(`select count(*) as v from ${table} where id = ${id}`) !== "1")
      .map(([table, id]) => `${table} ${id}`);

    // A form a browser could send, with bytes no field expects. It is a form, so it may change things: the
    // deletes and signing out go last, one at a time, so every other page still has what it is about.
    const last = (v: (typeof visits)[number]) => /\/delete$|^\/auth\/logout$/.test(v.pattern);
    for (const visit of [...visits.filter((v) => !last(v)), ...visits.filter(last)]) {
      const res = await post(visit.role, visit.host, visit.url, ODD_BYTES);
      const found = problem("odd bytes", res, visit.lang);
      if (found) problems.push(`${visit.role} POST ${visit.url} (odd bytes): ${found}`);
    }

    expect(problems).toEqual([]);
    expect(gone, "deleted by a post that was refused").toEqual([]);
    expect(errorLines(server.output().slice(logFrom)), "lines the server logged as errors").toEqual([]);
    // The walk reached every action as the one who may use it: no page passed by turning the admin away.
    expect(notReached).toEqual([]);
  }, 300_000);
});

describe("the refusal speaks the sender's language", () => {
  it("RFC 8058's unsubscribe address, which any site may post to, answers another site's JSON with 415 in Danish", async () => {
    const from = server.output().length;
    const res = await request(server.port, NORDLYS, "/reminders/unsubscribe?token=whatever", {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://mail.example" },
      body: '{"List-Unsubscribe":"One-Click"}',
    });
    expect(res.status).toBe(415);
    expect(res.body).toContain(locales.da.errors.notAForm);
    expect(errorLines(server.output().slice(from))).toEqual([]);
  });

  it("a visitor who chose Polish gets /theme's refusal in Polish", async () => {
    const chosen = await request(server.port, NORDLYS, "/language", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: `http://${NORDLYS}` },
      body: "language=pl",
    });
    const cookie = (chosen.headers["set-cookie"] ?? []).find((c) => c.startsWith("lng="))!.split(";")[0];
    const res = await request(server.port, NORDLYS, "/theme", {
      method: "POST",
      headers: { "Content-Type": "text/plain", Origin: `http://${NORDLYS}`, Cookie: cookie },
      body: "theme=dark",
    });
    expect(res.status).toBe(415);
    expect(res.body).toBe(locales.pl.errors.notAForm);
  });
});
