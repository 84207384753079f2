import { createRequestHandler, json, type EntryContext, type ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { partitionedRequestHandler, pathSegments, routePartitions } from "../../server/route-partitions";
import { matched, parentPaths, routeTree as tree } from "../helpers/route-matching";

/**
 * Remix handed only the routes a path can match (server/route-partitions.ts) answers as it does with the
 * whole build: the same status, the same matched routes with their params (for the path and the parent
 * paths the browser's manifest is made from), the same loader data. The app's own routes are checked the
 * same way in tests/integration/route-partitions.test.ts.
 */
const ROUTES: Array<{ id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean }> = [
  { id: "root", path: "" },
  { id: "home", parentId: "root", index: true },
  { id: "course", parentId: "root", path: "courses/:id" },
  { id: "lesson", parentId: "root", path: "courses/:id/lessons/:lessonId" },
  { id: "carousel", parentId: "root", path: "carousels/:id?" },
  { id: "optional", parentId: "root", path: "welcome?/tour" },
  { id: "lang", parentId: "root", path: ":lang/about" },
  { id: "area", parentId: "root", path: "dashboard" },
  { id: "area-index", parentId: "area", index: true },
  { id: "area-layout", parentId: "area" },
  { id: "area-users", parentId: "area-layout", path: "users/:userId" },
  { id: "area-user-list", parentId: "area-layout", path: "users" },
  { id: "exact", parentId: "root", path: "Exact", caseSensitive: true },
  { id: "catchall", parentId: "root", path: "*" },
];

function testBuild(): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  const assets: ServerBuild["assets"]["routes"] = {};
  for (const route of ROUTES) {
    routes[route.id] = {
      ...route,
      module: { default: () => null, loader: ({ params }) => json({ route: route.id, params }) },
    };
    assets[route.id] = {
      ...route,
      module: `/build/${route.id}.js`,
      hasAction: false,
      hasLoader: true,
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: route.id === "root",
    };
  }
  return {
    mode: "production",
    entry: {
      module: {
        // The document names what Remix matched, the routes it was given and the loaders' data.
        default: (_request: Request, status: number, headers: Headers, context: EntryContext) =>
          Response.json(
            {
              matches: context.staticHandlerContext.matches.map((m) => [m.route.id, m.params]),
              loaderData: context.staticHandlerContext.loaderData,
              given: Object.keys(context.manifest.routes),
            },
            { status, headers },
          ),
      },
    },
    routes,
    assets: { entry: { imports: [], module: "/build/entry.js" }, routes: assets, url: "/build/manifest.js", version: "1" },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
      v3_singleFetch: false,
    },
    isSpaMode: false,
  };
}

const PATHS = [
  "/",
  "/courses/5",
  "/COURSES/5/lessons/2",
  "/cour%73es/5",
  "/courses%2F5",
  "//courses/5",
  "/courses/5/",
  "/carousels",
  "/carousels/3",
  "/tour",
  "/welcome/tour",
  "/en/about",
  "/courses/about",
  "/dashboard",
  "/Dashboard/users/4",
  "/dashboard//users/4",
  "/Exact",
  "/exact",
  "/nowhere/at/all",
  "/%E0%A4%A",
];

describe("Remix given only the routes a path can match (server/route-partitions.ts)", () => {
  it("reads a path's segments as React Router matches them", () => {
    expect(pathSegments("/")).toEqual([""]);
    expect(pathSegments("/Courses/5/")).toEqual(["courses", "5", ""]);
    expect(pathSegments("/cour%73es/5")).toEqual(["courses", "5"]);
    expect(pathSegments("/courses%2F5/x")).toEqual(["courses%2f5", "x"]);
    expect(pathSegments("//courses")).toEqual(["", "courses"]);
    expect(pathSegments("/%E0%A4%A/x")).toEqual(["%e0%a4%a", "x"]);
  });

  it("keeps in each part the routes whose fixed segments are the path's", () => {
    const parts = routePartitions(testBuild());
    const ids = (path: string) => Object.keys(parts.forPath(path).routes).sort();
    const always = ["root", "home", "catchall"];
    expect(ids("/courses/5")).toEqual([...always, "course"].sort());
    expect(ids("/courses/5/lessons/2")).toEqual([...always, "course", "lesson"].sort());
    expect(ids("/courses/about")).toEqual([...always, "course", "lang"].sort());
    expect(ids("/carousels")).toEqual([...always, "carousel"].sort());
    expect(ids("/tour")).toEqual([...always, "optional"].sort());
    expect(ids("/DASHBOARD")).toEqual([...always, "area", "area-index", "area-layout"].sort());
    expect(ids("/dashboard/users/4")).toEqual([...always, "area", "area-index", "area-layout", "area-user-list", "area-users"].sort());
    // Its parent `/dashboard/users` is matched too (the browser's manifest), from its non-empty segments.
    expect(ids("/dashboard//users/4")).toEqual(ids("/dashboard/users/4"));
    expect(Object.keys(parts.forPath("/dashboard/users/4").assets.routes).sort()).toEqual(ids("/dashboard/users/4"));
    expect(ids("/nowhere/at/all")).toEqual(always.sort());
    expect(parts.forPath("/courses/6")).toBe(parts.forPath("/courses/5"));
  });

  it("matches each path, and each parent path, as the whole build does", () => {
    const build = testBuild();
    const parts = routePartitions(build);
    const whole = tree(build.routes);
    for (const path of PATHS) {
      const part = tree(parts.forPath(path).routes);
      for (const p of [path, ...parentPaths(path)]) expect(matched(part, p), `${p} of ${path}`).toEqual(matched(whole, p));
    }
  });

  it("answers every path as Remix does with the whole build: status, matches, params and data", async () => {
    const build = testBuild();
    const whole = createRequestHandler(build, "production");
    const cut = partitionedRequestHandler(build, "production");
    for (const path of PATHS) {
      const [a, b] = await Promise.all([whole(new Request(`https://acme.test${path}`)), cut(new Request(`https://acme.test${path}`))]);
      expect(b.status, path).toBe(a.status);
      const [expected, got] = [await a.json(), await b.json()];
      expect(got.matches, path).toEqual(expected.matches);
      expect(got.loaderData, path).toEqual(expected.loaderData);
      expect(expected.matches.length, path).toBeGreaterThan(1);
      // The part's routes, not the whole build's, reached the render.
      if (path === "/nowhere/at/all") expect(got.given.sort()).toEqual(["catchall", "home", "root"]);
    }
  });

  it("answers a data request and route discovery (`/__manifest`) as the whole build does", async () => {
    const build = testBuild();
    const whole = createRequestHandler(build, "production");
    const cut = partitionedRequestHandler(build, "production");
    const same = async (url: string) => {
      const [a, b] = await Promise.all([whole(new Request(url)), cut(new Request(url))]);
      expect(b.status, url).toBe(a.status);
      expect(await b.text(), url).toBe(await a.text());
    };
    await same("https://acme.test/courses/5?_data=course");
    await same("https://acme.test/dashboard/users/4?_data=area-users");
    await same("https://acme.test/__manifest?version=1&p=%2Fcourses%2F5&p=%2Fdashboard%2Fusers%2F4&p=%2Fnowhere");
  });
});
