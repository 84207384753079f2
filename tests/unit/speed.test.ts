import fs from "node:fs";
import { anonymousViewer, type Viewer } from "../../app/access/viewer";
import { capabilitiesOf } from "../../app/utils/capabilities";
import type { User } from "../../db/tenant";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTenantDatabase, openTenantDatabase } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { createCourse } from "../../app/models/course.server";
import { search } from "../../app/models/learning.server";
import { recentCourseCards } from "../../app/models/browse.server";
import { categories, courses } from "../../db/tenant";
import { defaultPoolSize, tenantDatabaseFile } from "../../db/tenant-pool";
import { richTextToPlain, sanitizeRichText } from "../../app/utils/sanitize.server";
import { subscribeLearningEvents } from "../../app/models/subscribers.server";

// The models publish learning events; what reacts to them subscribes at start-up, as the server does.
subscribeLearningEvents();

// The CommonJS build is the one the server runs (and the one the patch-package diffs in patches/ patches).
const { matchRoutes } = createRequire(import.meta.url)("@remix-run/router") as typeof import("@remix-run/router");

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-speed-"));
  createTenantDatabase(tenantDatabaseFile(dir, 1));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Viewers for the models (app/access/viewer.ts): a visitor, an editor who previews drafts, a learner. */
const anyone = anonymousViewer(null, null, "en");
const editor: Viewer = { ...anyone, via: "cookie", role: "admin", capabilities: capabilitiesOf("admin") };
const learner = (id: number): Viewer => ({
  ...anyone,
  via: "cookie",
  person: { id } as User,
  role: "learner",
  capabilities: capabilitiesOf("learner"),
});

describe("statements prepared once per handle", () => {
  it("hands out the same statement for the same SQL, back in its default mode", () => {
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const sqlite = db.$client;
    sqlite.prepare("insert into categories (name) values ('a'), ('b')").run();
    const first = sqlite.prepare("select name from categories order by id");
    expect(first.raw().all()).toEqual([["a"], ["b"]]);
    const again = sqlite.prepare("select name from categories order by id");
    expect(again).toBe(first);
    expect(again.all()).toEqual([{ name: "a" }, { name: "b" }]); // raw mode was reset
    again.pluck();
    expect(sqlite.prepare("select name from categories order by id").all()).toEqual([{ name: "a" }, { name: "b" }]);
    sqlite.close();
  });

  it("never shares a statement that is still being iterated", () => {
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const sqlite = db.$client;
    sqlite.prepare("insert into categories (name) values ('a'), ('b')").run();
    const names: string[] = [];
    for (const row of sqlite.prepare("select name from categories order by id").iterate() as Iterable<{ name: string }>) {
      // The same SQL inside the loop gets a statement of its own.
      names.push(row.name, ...(sqlite.prepare("select name from categories order by id").all() as { name: string }[]).map((r) => r.name));
    }
    expect(names).toEqual(["a", "a", "b", "b", "a", "b"]);
    sqlite.close();
  });

  it("drizzle queries give the same rows as before, and see writes made since", () => {
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    db.insert(categories).values({ name: "one" }).run();
    const byName = (name: string) => db.select().from(categories).where(eq(categories.name, name)).get();
    expect(byName("one")?.name).toBe("one");
    db.insert(categories).values({ name: "two" }).run();
    expect(byName("two")?.name).toBe("two");
    expect(
      db
        .select()
        .from(categories)
        .all()
        .map((c) => c.name),
    ).toEqual(["one", "two"]);
    db.$client.close();
  });
});

describe("search results kept while the index and publication are unchanged (db/content-cache.ts)", () => {
  it("are the same after unrelated writes, and new after any change to what they show", () => {
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const other = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const river = createCourse(db, { title: "River safety", description: "A course.", type: "series", published: true, position: 1 });
    createCourse(db, { title: "Mountain river", description: "Draft.", type: "series", published: false, position: 2 });
    const titles = () => search(db, anyone, "river").items.map((h) => h.title);
    expect(titles()).toEqual(["River safety"]);
    db.insert(categories).values({ name: "unrelated" }).run(); // a write the result does not depend on
    expect(search(db, anyone, "river").items[0]).toBe(search(db, anyone, "river").items[0]); // kept
    expect(search(db, editor, "river").total).toBe(2);
    db.update(courses).set({ published: false }).where(eq(courses.id, river.id)).run();
    expect(search(db, anyone, "river")).toEqual({ items: [], total: 0 });
    other.update(courses).set({ published: true }).where(eq(courses.id, river.id)).run(); // another connection
    expect(titles()).toEqual(["River safety"]);
    other.update(courses).set({ title: "Lake safety" }).where(eq(courses.id, river.id)).run();
    expect(titles()).toEqual([]);
    expect(search(db, anyone, "lake").items.map((h) => h.title)).toEqual(["Lake safety"]);
    db.transaction((tx) => {
      tx.update(courses).set({ title: "River again" }).where(eq(courses.id, river.id)).run();
      expect(search(tx, anyone, "river").items.map((h) => h.title)).toEqual(["River again"]); // inside the transaction
    });
    expect(titles()).toEqual(["River again"]);
    db.$client.close();
    other.$client.close();
  });
});

describe("queries built once per connection", () => {
  it("are shared by the connection and its transactions, not across connections", () => {
    const a = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const b = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const build = (db: typeof a) => () =>
      db
        .select()
        .from(categories)
        .where(eq(categories.name, sql.placeholder("name")))
        .prepare();
    const query = preparedOnce(a, "test.byName", build(a));
    expect(preparedOnce(a, "test.byName", build(a))).toBe(query);
    a.transaction((tx) => expect(preparedOnce(tx, "test.byName", build(a))).toBe(query));
    expect(preparedOnce(b, "test.byName", build(b))).not.toBe(query);
    a.insert(categories).values({ name: "x" }).run();
    expect(query.get({ name: "x" })?.name).toBe("x");
    expect(query.get({ name: "y" })).toBeUndefined();
    a.$client.close();
    b.$client.close();
  });
});

describe("the tenant pool's default size", () => {
  it("fits the open-file limit (three files a handle) and the memory budget (TENANT_POOL_MB, at most a quarter of memory)", () => {
    // 64 MiB at 2.5 MiB a handle (2 MiB page cache, 0.5 MiB overhead).
    expect(defaultPoolSize({ fileLimit: 20_000, memoryBytes: 1024 ** 4 })).toBe(25);
    expect(defaultPoolSize({ fileLimit: 20_000, memoryBytes: 1024 ** 4, budgetMiB: 4096 })).toBe(1638);
    expect(defaultPoolSize({ fileLimit: 1024, memoryBytes: 1024 ** 4, budgetMiB: 1_000_000 })).toBe(256);
    // A quarter of 1 GiB is 256 MiB: the budget of 1,000 MiB is cut to it.
    expect(defaultPoolSize({ fileLimit: 1 << 20, memoryBytes: 1024 ** 3, budgetMiB: 1000 })).toBe(102);
    expect(defaultPoolSize({ fileLimit: 300, memoryBytes: 1024 ** 3 })).toBe(16);
  });
});

describe("route matching (the patch-package diffs in patches/)", () => {
  const routes = [
    {
      id: "root",
      path: "",
      children: [
        { id: "home", index: true },
        { id: "course", path: "courses/:id" },
        { id: "lesson", path: "courses/:id/lessons/:lessonId" },
        { id: "carousel", path: "carousels/:id?" },
        { id: "resolve", path: "api/resolve" },
        { id: "api", path: "api/*" },
        { id: "catchall", path: "*" },
      ],
    },
  ];
  const ids = (p: string) => matchRoutes(routes, p)?.map((m) => m.route.id);
  it("finds the same route as trying every one in turn", () => {
    expect(ids("/")).toEqual(["root", "home"]);
    expect(ids("/courses/4")).toEqual(["root", "course"]);
    expect(ids("/COURSES/4/lessons/2")).toEqual(["root", "lesson"]);
    expect(ids("/carousels")).toEqual(["root", "carousel"]);
    expect(ids("/carousels/3")).toEqual(["root", "carousel"]);
    expect(ids("/api/resolve")).toEqual(["root", "resolve"]);
    expect(ids("/api/other/thing")).toEqual(["root", "api"]);
    expect(ids("/nowhere/at/all")).toEqual(["root", "catchall"]);
    expect(matchRoutes(routes, "/courses/4")?.[1].params).toEqual({ id: "4" });
  });
});

describe("the route tree of a page render (the patch-package diffs in patches/)", () => {
  const req = createRequire(import.meta.url);
  const { createServerRoutes } = req("@remix-run/react/dist/routes.js");
  const { createStaticRouter } = req("react-router-dom/server.js");
  const manifest = {
    root: { id: "root", path: "", hasLoader: true },
    "routes/_index": { id: "routes/_index", parentId: "root", index: true, hasLoader: true },
    "routes/courses.$id": { id: "routes/courses.$id", parentId: "root", path: "courses/:id", hasLoader: false },
  };
  const Page = () => null;
  const modules = () => ({
    root: { default: Page },
    "routes/_index": { default: Page },
    "routes/courses.$id": { default: Page, handle: { x: 1 } },
  });

  it("is built once for the same manifest and modules, and again when a module differs", () => {
    const first = modules();
    const routes = createServerRoutes(manifest, first, {}, false);
    expect(createServerRoutes(manifest, { ...first }, routes.future, false)).not.toBe(routes); // another future object
    const future = {};
    const kept = createServerRoutes(manifest, first, future, false);
    expect(createServerRoutes(manifest, { ...first }, future, false)).toBe(kept);
    expect(kept[0].children.map((r: { id: string }) => r.id)).toEqual(["routes/_index", "routes/courses.$id"]);
    expect(kept[0].children[1].handle).toEqual({ x: 1 });
    const changed = { ...first, "routes/courses.$id": { default: Page, handle: { x: 2 } } };
    const rebuilt = createServerRoutes(manifest, changed, future, false);
    expect(rebuilt).not.toBe(kept);
    expect(rebuilt[0].children[1].handle).toEqual({ x: 2 });
  });

  it("gives the static router the same data routes for the same tree, with the context's matches", () => {
    const routes = createServerRoutes(manifest, modules(), {}, false);
    const context = (id: string) => ({
      matches: [
        { route: { id: "root" }, params: {} },
        { route: { id }, params: {} },
      ],
      basename: "/",
      location: {},
      loaderData: {},
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      activeDeferreds: null,
    });
    const a = createStaticRouter(routes, context("routes/_index"));
    const b = createStaticRouter(routes, context("routes/courses.$id"));
    expect(b.routes).toBe(a.routes);
    expect(a.state.matches.map((m: { route: { id: string } }) => m.route.id)).toEqual(["root", "routes/_index"]);
    expect(b.state.matches.map((m: { route: { id: string } }) => m.route.id)).toEqual(["root", "routes/courses.$id"]);
    expect(b.state.matches[1].route).toBe(b.routes[0].children[1]);
  });
});

describe("a loader's Request (the patch-package diffs in patches/)", () => {
  const { callRouteLoader } = createRequire(import.meta.url)("@remix-run/server-runtime/dist/data.js");
  const seen = async (request: Request) => {
    let got: Request | undefined;
    await callRouteLoader({
      loadContext: {},
      params: {},
      routeId: "routes/x",
      singleFetch: false,
      request,
      loader: ({ request: r }: { request: Request }) => ((got = r), null),
    });
    return got!;
  };

  it("is the page's own Request when Remix's stripping would leave its URL as it is", async () => {
    for (const url of ["https://acme.test/courses/5", "https://acme.test/search?q=river&page=2", "https://acme.test/?"]) {
      const request = new Request(url);
      const got = await seen(request);
      const stripped = new URL(url);
      stripped.searchParams.delete("index");
      stripped.searchParams.delete("_data");
      expect(got === request).toBe(stripped.href === url);
      expect(got.url).toBe(stripped.href);
    }
  });

  it("is a copy without Remix's own parameters otherwise, as before", async () => {
    const cases: Array<[string, string]> = [
      ["https://acme.test/courses?index&q=a", "https://acme.test/courses?q=a"],
      ["https://acme.test/courses?_data=routes%2Fcourses&q=a", "https://acme.test/courses?q=a"],
      ["https://acme.test/courses?index=1&q=a", "https://acme.test/courses?q=a&index=1"],
      // Stripping writes the query out again: the loader sees it as Remix always gave it.
      ["https://acme.test/search?q=a%20b", "https://acme.test/search?q=a+b"],
    ];
    for (const [url, expected] of cases) {
      const controller = new AbortController();
      const request = new Request(url, { signal: controller.signal, headers: { "x-test": "1" } });
      const got = await seen(request);
      expect(got).not.toBe(request);
      expect(got.url).toBe(expected);
      expect(got.headers.get("x-test")).toBe("1");
      controller.abort();
      expect(got.signal.aborted).toBe(true);
    }
  });
});

describe("a loader's JSON (the patch-package diffs in patches/)", () => {
  const req = createRequire(import.meta.url);
  const { json } = req("@remix-run/server-runtime/dist/responses.js") as {
    json: (data: unknown, init?: ResponseInit | number) => Response;
  };
  const { isResponse } = req("@remix-run/server-runtime/dist/responses.js") as { isResponse: (value: unknown) => boolean };
  const { createStaticHandler } = req("@remix-run/router") as typeof import("@remix-run/router");
  const TEXT = Symbol.for("lectern.jsonReply.text");
  const data = { when: new Date(0), text: "ünï \u2028 <script>", none: undefined, list: [1, null] };

  it("is a Response with the same status, headers and bytes as before, its text kept", async () => {
    const reply = json(data, { status: 201, headers: { "X-Extra": "1" } });
    const ordinary = new Response(JSON.stringify(data), {
      status: 201,
      headers: { "Content-Type": "application/json; charset=utf-8", "X-Extra": "1" },
    });
    expect(reply).toBeInstanceOf(Response);
    expect((reply as unknown as Record<symbol, unknown>)[TEXT]).toBe(JSON.stringify(data));
    expect(isResponse(reply)).toBe(true);
    expect(reply.status).toBe(201);
    expect([...reply.headers]).toEqual([...ordinary.headers]);
    expect(reply.bodyUsed).toBe(false);
    expect(await reply.clone().text()).toBe(await ordinary.text());
    expect(await reply.json()).toEqual(JSON.parse(JSON.stringify(data)));
    expect(reply.bodyUsed).toBe(true);
    await expect(reply.text()).rejects.toThrow(TypeError);
    // What Response itself refuses is refused as before.
    expect(() => json({ a: 1 }, 204)).toThrow(TypeError);
    expect(json(undefined).body).toBeNull();
  });

  it("reaches the page as the browser will see it: parsed from its text, dates as strings", async () => {
    const handler = createStaticHandler([{ id: "root", path: "/", loader: () => json(data, { headers: { "X-From": "loader" } }) }]);
    const context = await handler.query(new Request("https://acme.test/"));
    if (context instanceof Response) throw new Error("unexpected redirect");
    expect(context.loaderData.root).toEqual(JSON.parse(JSON.stringify(data)));
    expect(context.loaderData.root.when).toBe("1970-01-01T00:00:00.000Z");
    expect(context.loaderHeaders.root.get("X-From")).toBe("loader");
  });
});

describe("rich text", () => {
  it("is sanitised the same way on every call", () => {
    const html = '<p onclick="x()">Hi <a href="javascript:alert(1)">there</a><script>bad()</script></p>';
    const once = sanitizeRichText(html);
    expect(once).not.toMatch(/onclick|javascript|script/);
    expect(sanitizeRichText(html)).toBe(once);
    expect(richTextToPlain("<p>A &amp; B</p>")).toBe("A & B");
    expect(richTextToPlain("<p>A &amp; B</p>")).toBe("A & B");
  });
});

describe("patched library code (the patch-package diffs in patches/)", () => {
  const require = createRequire(import.meta.url);

  it("Remix's route module map is one object per build in production, as complete as before", () => {
    const { createEntryRouteModules } = require(
      path.join(path.dirname(require.resolve("@remix-run/server-runtime/package.json")), "dist", "entry.js"),
    ) as {
      createEntryRouteModules: (m: Record<string, { module: unknown }>) => Record<string, unknown>;
    };
    const manifest = { root: { module: { default: 1 } }, "routes/_index": { module: { default: 2 } } };
    const first = createEntryRouteModules(manifest);
    expect(first).toEqual({ root: manifest.root.module, "routes/_index": manifest["routes/_index"].module });
    // Vitest runs with NODE_ENV=test: a new map each time, as Remix makes it.
    expect(createEntryRouteModules(manifest)).not.toBe(first);
  });
});

describe("card rows kept per connection (app/models/browse.server.ts)", () => {
  it("gives every recent course's card when the kept rows are started again mid-call", () => {
    const db = openTenantDatabase(tenantDatabaseFile(dir, 1));
    const sqlite = db.$client;
    sqlite.transaction(() => {
      const course = sqlite.prepare("insert into courses (title, description, type, published, position) values (?, '', 'series', 1, ?)");
      const lesson = sqlite.prepare("insert into lessons (course_id, title, kind, body, position) values (?, 'Lesson', 'text', '', 0)");
      for (let i = 1; i <= 2_010; i++) {
        course.run(`Course ${i}`, i);
        lesson.run(i);
      }
      const user = sqlite.prepare("insert into users (email, first_name, last_name, role) values (?, 'L', ?, 'learner')");
      for (let u = 1; u <= 101; u++) user.run(`l${u}@example.test`, String(u));
      const seen = sqlite.prepare(
        "insert into lesson_progress (user_id, lesson_id, course_id, position_seconds, watched_seconds) values (?, ?, ?, 1, 1)",
      );
      // Learners 1-100 have seen 20 courses each (2,000 in all); learner 101 ten of learner 1's and ten new.
      for (let u = 1; u <= 100; u++) for (let k = 1; k <= 20; k++) seen.run(u, (u - 1) * 20 + k, (u - 1) * 20 + k);
      for (let k = 1; k <= 10; k++) seen.run(101, k, k);
      for (let k = 2_001; k <= 2_010; k++) seen.run(101, k, k);
    })();
    for (let u = 1; u <= 100; u++) expect(recentCourseCards(db, learner(u), 20)).toHaveLength(20);
    const cards = recentCourseCards(db, learner(101), 20);
    expect(cards.map((c) => c.id).sort((a, b) => a - b)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => i + 1),
      ...Array.from({ length: 10 }, (_, i) => 2_001 + i),
    ]);
    sqlite.close();
  });
});
