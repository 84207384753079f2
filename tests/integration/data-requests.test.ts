import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtRoutes } from "../helpers/routes";
import { request, type HttpResponse } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { makeDataDir } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * Remix's data requests (issue 44, item 3). A page's document request runs the loaders of every route it
 * matches, layouts first; `GET <page>?_data=<route id>` runs that one route's loader alone. So a loader that
 * leaves the check to its layout is open through its data request: the dashboard's layout refuses group
 * admins, but `/dashboard/compliance?_data=pages/dashboard/compliance/index` answered them the report (and
 * so did the analytics and compliance people pages).
 *
 * The walk: every route of the built app with a loader (the server build's own route manifest, so a new
 * route is walked without a line here), as a visitor, a learner, a group admin and an organization admin
 * of Acme (the demo's accounts; the group admin is a demo learner made admin of a demo group), and as a
 * visitor on the platform host (the super-admin's /admin). For each, the document's answer and the data
 * request's answer must be the same: both 200, both a redirect to the same place, or both the same
 * refusal. Dynamic segments get real ids read from the demo's database.
 */
const HOST = "acme.localhost";
const ROLES = ["visitor", "learner", "group admin", "org admin"] as const;
type Role = (typeof ROLES)[number];
/** Each role on Acme's host; and a visitor on the platform's, where /admin lives (an Acme cookie means nothing there). */
const WALKS: [name: string, role: Role, host: string][] = [
  ...ROLES.map((role): [string, Role, string] => [role, role, HOST]),
  ["visitor on the platform host", "visitor", "localhost"],
];

/** Every route with a loader, with its full path pattern, from the built server's manifest. */
async function routesWithLoaders() {
  return (await builtRoutes()).filter((r) => typeof r.module.loader === "function").map((r) => ({ id: r.id, pattern: r.pattern }));
}

/** Ids from the demo's database, so the walk opens real courses, lessons, groups… that exist. */
interface Samples {
  organizationId: number;
  courseId: number;
  lessonId: number;
  scorm: { courseId: number; lessonId: number };
  video: { courseId: number; lessonId: number };
  categoryId: number;
  carouselId: number;
  groupId: number;
  quizId: number;
  pathId: number;
  certificateId: number;
  certificatePublicId: string;
  certificateTemplateId: number;
  badgeId: number;
  badgeUid: string;
  jobId: number;
  importId: number;
  ssoDriverId: number;
  ssoSlug: string;
  learnerId: number;
  statementId: string;
  learnerEmail: string;
  groupAdminEmail: string;
}

function readSamples(dataDir: string): Samples {
  const platform = new Database(path.join(dataDir, "platform.sqlite"), { readonly: true });
  const organizationId = (platform.prepare("select id from organizations where url_prefix = 'acme'").get() as { id: number }).id;
  platform.close();
  const db = new Database(path.join(dataDir, `org-${organizationId}`, "db.sqlite"));
  try {
    const one = <T>(sql: string, ...params: unknown[]) => {
      const row = db.prepare(sql).get(...params) as T | undefined;
      if (row === undefined) throw new Error(`the demo has no row for: ${sql}`);
      return row;
    };
    const value = (sql: string, ...params: unknown[]) =>
      db
        .prepare(sql)
        .pluck()
        .get(...params) as number;
    // A course anyone may open: published, open to all, no prerequisite, lessons in any order.
    const open = `c.published = 1 and c.block_default_access = 0 and c.force_groups = 0 and c.prerequisite_course_id is null
      and c.sequential_lessons = 0`;
    const lessonOf = (kind: string) =>
      one<{ courseId: number; lessonId: number }>(
        `select l.course_id as courseId, l.id as lessonId from lessons l join courses c on c.id = l.course_id
         where ${open} and l.kind = ? order by l.course_id, l.position limit 1`,
        kind,
      );
    const text = lessonOf("text");
    const learner = one<{ id: number; email: string }>("select id, email from users where email = 'learner@acme.test'");
    // The demo makes no group admin: one of a demo group's learners (not the demo learner) becomes its admin.
    const member = one<{ groupId: number; userId: number; email: string }>(
      `select gm.group_id as groupId, u.id as userId, u.email from group_members gm join users u on u.id = gm.user_id
       where u.role = 'learner' and u.id <> ? order by gm.group_id desc, u.id limit 1`,
      learner.id,
    );
    db.prepare("update group_members set is_admin = 1 where group_id = ? and user_id = ?").run(member.groupId, member.userId);
    const certificate = one<{ id: number; publicId: string }>(
      "select id, public_id as publicId from certificates where user_id = ? order by id limit 1",
      learner.id,
    );
    const badge = one<{ badgeId: number; uid: string }>("select badge_id as badgeId, uid from user_badges order by id limit 1");
    const sso = one<{ id: number; slug: string }>("select id, slug from sso_drivers order by id limit 1");
    return {
      organizationId,
      courseId: text.courseId,
      lessonId: text.lessonId,
      scorm: lessonOf("scorm"),
      video: lessonOf("video"),
      categoryId: value("select id from categories order by id limit 1"),
      carouselId: value("select id from carousels order by id limit 1"),
      groupId: member.groupId,
      quizId: value("select id from quizzes order by id limit 1"),
      pathId: value("select id from learning_paths order by id limit 1"),
      certificateId: certificate.id,
      certificatePublicId: certificate.publicId,
      certificateTemplateId: value("select id from certificate_templates order by id limit 1"),
      badgeId: badge.badgeId,
      badgeUid: badge.uid,
      // An id past the last job and import (the demo queues none): the screens' "not found", checked after who asks.
      jobId: value("select coalesce(max(id), 0) + 1 from jobs"),
      importId: value("select coalesce(max(id), 0) + 1 from user_imports"),
      ssoDriverId: sso.id,
      ssoSlug: sso.slug,
      learnerId: learner.id,
      // The demo's LRS holds a month of statements (scripts/demo/xapi.ts).
      statementId: one<{ id: string }>("select id from xapi_statements order by seq limit 1").id,
      learnerEmail: learner.email,
      groupAdminEmail: member.email,
    };
  } finally {
    db.close();
  }
}

/**
 * A real address for a route's pattern. Each dynamic segment is named by the static segment before it
 * (`courses/:courseId`, `lessons/:lessonId`); a segment this does not know fails the walk, naming the route,
 * so a route with a new kind of id gets a sample here rather than going unwalked.
 */
function sampleFor(pattern: string, s: Samples): string {
  const lesson = pattern.endsWith("/scorm") ? s.scorm : pattern.endsWith("/captions") ? s.video : s;
  const segments = pattern.split("/");
  return segments
    .map((segment, i) => {
      if (segment === "*") return "no-such-page";
      if (!segment.startsWith(":")) return segment;
      const key = `${segments[i - 1]}/${segment.replace(/\?$/, "")}`;
      const values: Record<string, string | number> = {
        "courses/:id": lesson.courseId,
        "courses/:courseId": lesson.courseId,
        "lessons/:lessonId": lesson.lessonId,
        "categories/:id": s.categoryId,
        "categories/:categoryId": s.categoryId,
        "carousels/:id": s.carouselId,
        "carousels/:carouselId": s.carouselId,
        "groups/:groupId": s.groupId,
        "quizzes/:quizId": s.quizId,
        "paths/:id": s.pathId,
        "paths/:pathId": s.pathId,
        "verify/:id": s.certificatePublicId,
        "certificates/:id": s.certificateId,
        "certificate-templates/:certificateTemplateId": s.certificateTemplateId,
        "assertions/:uid": s.badgeUid,
        "classes/:id": s.badgeId,
        "images/:id": s.badgeId,
        "organizations/:id": s.organizationId,
        // The organization's screens' `:tab` route answers the tabs no screen of its own has.
        ":id/:tab": "no-such-tab",
        "jobs/:jobId": s.jobId,
        "bulk/:jobId": s.jobId,
        "import/:importId": s.importId,
        "sso/:driverId": s.ssoDriverId,
        "sso/:driver": s.ssoSlug,
        "statements/:statementId": s.statementId,
        // /admin/users/{organization}-{user}: people live in their organization's database.
        "users/:id": `${s.organizationId}-${s.learnerId}`,
        "users/:userId": s.learnerId,
        "reset/:email": encodeURIComponent(s.learnerEmail),
        ":email/:token": "not-a-token",
      };
      if (!(key in values)) throw new Error(`no sample for ${segment} in ${pattern}: add one to sampleFor`);
      return String(values[key]);
    })
    .join("/");
}

/** What a document request got: its status, or where it was sent. */
function documentOutcome(res: HttpResponse) {
  if (res.status >= 300 && res.status < 400) return `redirect ${res.headers.location}`;
  return String(res.status);
}

/** The same for a data request, whose redirects come as 204 + X-Remix-Redirect. */
function dataOutcome(res: HttpResponse) {
  const redirect = res.headers["x-remix-redirect"];
  if (redirect) return `redirect ${redirect}`;
  if (res.status >= 300 && res.status < 400) return `redirect ${res.headers.location}`;
  return String(res.status);
}

/** Every route with a loader, read before the tests are collected: each route is a test of its own. */
const routes = await routesWithLoaders();

let server: InProcessServer;
let samples: Samples;
const cookies: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  const dataDir = makeDataDir();
  samples = readSamples(dataDir);
  server = await startInProcess({ dataDir });
  const emails: Record<Exclude<Role, "visitor">, string> = {
    learner: samples.learnerEmail,
    "group admin": samples.groupAdminEmail,
    "org admin": "admin@acme.test",
  };
  for (const [role, email] of Object.entries(emails)) {
    cookies[role as Role] = await cookieFor(insertSession(server, { organizationId: samples.organizationId }, { email, kind: "web" }));
  }
});
afterAll(() => server?.stop());

function get(address: string, role: Role, host: string = HOST) {
  const cookie = cookies[role];
  return request(server.port, host, address, { headers: cookie ? { Cookie: cookie } : {} });
}

type Walk = (typeof WALKS)[number];
interface Outcome {
  address: string;
  document: string;
  data: string;
}

/** What one walk got for one route: the page, and its ?_data request. Kept, for the count of pages each opened. */
const outcomes = new Map<string, Outcome>();
async function outcomeOf([name, role, host]: Walk, route: (typeof routes)[number]): Promise<Outcome> {
  const key = `${name} ${route.id}`;
  const known = outcomes.get(key);
  if (known) return known;
  const address = sampleFor(route.pattern, samples);
  const [document, data] = await Promise.all([
    get(address, role, host).then(documentOutcome),
    get(`${address}?_data=${encodeURIComponent(route.id)}`, role, host).then(dataOutcome),
  ]);
  const outcome = { address, document, data };
  outcomes.set(key, outcome);
  return outcome;
}

describe("every loader checks who may use it itself: ?_data=<route> answers as the page does", () => {
  it("walks every route with a loader, the dashboard's included", () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(routes.map((r) => r.id)).toEqual(
      expect.arrayContaining([
        "root",
        "pages/dashboard/analytics",
        "pages/dashboard/compliance/index",
        "pages/dashboard/compliance/people",
      ]),
    );
  });

  // One test a route, each walk at once (each has its own session, and a page's GET changes nothing).
  it.each(routes.map((route) => [`${route.pattern} (${route.id})`, route] as const))("%s", async (_name, route) => {
    const got = await Promise.all(WALKS.map(async (walk) => ({ walk: walk[0], ...(await outcomeOf(walk, route)) })));
    const differ = got.filter((o) => o.document !== o.data).map((o) => `as ${o.walk}, ${o.address}: page ${o.document}, ?_data ${o.data}`);
    expect(differ).toEqual([]);
  });

  // The samples are real: everyone opens some pages, and the organization admin most of those outside /admin.
  it.each(WALKS)("as %s, opens the pages it may", async (...walk) => {
    const got = await Promise.all(routes.map((route) => outcomeOf(walk, route)));
    const opened = got.filter((o) => o.document === "200").length;
    const outsideAdmin = routes.filter((r) => !r.pattern.startsWith("/admin")).length;
    expect(opened).toBeGreaterThan(walk[1] === "org admin" ? outsideAdmin / 2 : 1);
  });

  // The reproduction: a group admin asked the dashboard's pages for their data one route at a time.
  it.each([
    ["/dashboard/analytics", "pages/dashboard/analytics", '"reports"'],
    ["/dashboard/compliance", "pages/dashboard/compliance/index", '"report"'],
    ["/dashboard/compliance/people", "pages/dashboard/compliance/people", '"people"'],
  ])("a group admin's %s?_data is refused and carries nothing of the page", async (address, id, key) => {
    const asked = `${address}?_data=${encodeURIComponent(id)}`;
    const refused = await get(asked, "group admin");
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain(key);
    // The same request by the organization's admin is the page's data (so the key is the right one).
    const allowed = await get(asked, "org admin");
    expect(allowed.status).toBe(200);
    expect(allowed.body).toContain(key);
  });
});
