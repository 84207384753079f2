import http from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import zlib from "node:zlib";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRouteMatcher } from "../../server/api-direct";
import { DEMO_PASSWORD, loginApi } from "../helpers/auth";
import { request } from "../helpers/http";
import { ROOT, startServer, type RunningServer } from "../helpers/server";

/** /api routes served straight from Express (server/api-direct.ts) answer as Remix would. */
const require = createRequire(import.meta.url);
const { createRoutes } = require("@remix-run/server-runtime/dist/routes.js");
const { matchServerRoutes } = require("@remix-run/server-runtime/dist/routeMatching.js");

describe("the /api route match", () => {
  it("is the route Remix matches, for every /api route and variants of its path", async () => {
    const build = (await import(pathToFileURL(path.join(ROOT, "build", "index.js")).href)) as ServerBuild;
    const remixRoutes = createRoutes(build.routes);
    const ours = apiRouteMatcher(build);
    const fullPath = (id: string): string => {
      const route = build.routes[id];
      const parent = route.parentId && route.parentId !== "root" ? fullPath(route.parentId) : "";
      return [parent, route.path ?? ""].filter(Boolean).join("/");
    };
    const paths = new Set<string>(["/api/", "/api/x", "/api/nothing/here/at/all", "/api//resolve", "/api/%7Ex", "/api/courses/1/../2"]);
    for (const id of Object.keys(build.routes)) {
      const p = fullPath(id);
      if (!p.startsWith("api")) continue;
      const concrete = `/${p.replace(/:[^/]+/g, "7").replace(/\*/g, "a/b")}`;
      paths.add(concrete);
      paths.add(`${concrete}/`);
      paths.add(concrete.toUpperCase());
      paths.add(`${concrete}/extra`);
      paths.add(`${concrete}/extra/more`);
      paths.add(concrete.replace(/7/g, "caf%C3%A9"));
    }
    expect(paths.size).toBeGreaterThan(300);
    for (const p of paths) {
      const pathname = new URL(`http://host${p}`).pathname;
      const theirs = matchServerRoutes(remixRoutes, pathname) as Array<{ route: { id: string }; params: object }> | null;
      const mine = ours(pathname);
      expect({ p, ids: mine?.map((m) => m.route.id), params: mine?.at(-1)?.params }).toEqual({
        p,
        ids: theirs?.map((m) => m.route.id),
        params: theirs?.at(-1)?.params,
      });
    }
  });
});

describe("an /api reply served without Remix's document machinery", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server?.stop());

  it("is the route's reply, HEAD without a body", async () => {
    const get = await request(server.port, "acme.localhost", "/api/resolve?domain=acme.localhost");
    expect(get.status).toBe(200);
    expect(get.headers["content-type"]).toMatch(/application\/json/);
    expect(get.headers["content-security-policy"]).toBeTruthy();
    expect(get.headers["x-request-id"]).toBeTruthy();
    const head = await request(server.port, "acme.localhost", "/api/resolve?domain=acme.localhost", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("answers a method the route has no handler for as Remix does (405), and unknown paths with the API's 404", async () => {
    const post = await request(server.port, "acme.localhost", "/api/resolve?domain=acme.localhost", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://acme.localhost" },
      body: "{}",
    });
    expect(post.status).toBe(405);
    const missing = await request(server.port, "acme.localhost", "/api/no/such/thing");
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: true, status: 404 });
  });

  it("leaves a fetcher's ?_data and ?index requests to Remix, and refuses ?_data naming another route", async () => {
    const data = await request(server.port, "acme.localhost", "/api/resolve?domain=acme.localhost&_data=routes%2Fapi.resolve");
    expect(data.status).toBe(200);
    expect(data.json()).toMatchObject({ payload: { urlPrefix: "acme" } });
    const other = await request(server.port, "acme.localhost", "/api/resolve?domain=acme.localhost&_data=routes%2Fapi.courses");
    expect(other.status).toBe(400);
    expect(other.json()).toMatchObject({ error: true, status: 400 });
    const index = await request(server.port, "acme.localhost", "/api/resolve?index&domain=acme.localhost");
    expect(index.status).toBe(200);
  });

  it("compresses a large JSON reply for a client that accepts gzip, and sends a small one as it is", async () => {
    const { token } = await loginApi(server, "nordlys.localhost", "learner@nordlys.test");
    const headers = { authorization: `Bearer ${token}`, "accept-encoding": "gzip" };
    const large = await request(server.port, "nordlys.localhost", "/api/courses?per_page=50", { headers });
    expect(large.status).toBe(200);
    expect(large.headers["content-encoding"]).toBe("gzip");
    expect(large.headers.vary).toMatch(/Accept-Encoding/i);
    const courses = JSON.parse(zlib.gunzipSync(large.raw).toString("utf8"));
    expect(courses.payload.data.length).toBeGreaterThan(1);
    expect(zlib.gunzipSync(large.raw).length).toBeGreaterThan(1024);

    const plain = await request(server.port, "nordlys.localhost", "/api/courses?per_page=50", { headers: { authorization: `Bearer ${token}` } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.json()).toEqual(courses);
    expect(Number(plain.headers["content-length"])).toBe(plain.raw.length);

    const small = await request(server.port, "acme.localhost", "/api/resolve?domain=acme.localhost", { headers: { "accept-encoding": "gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers.vary).toMatch(/Accept-Encoding/i);
    expect(small.json()).toMatchObject({ payload: { urlPrefix: "acme" } });
  });

  it("reads a JSON body sent in pieces, and refuses bad JSON with the API's error", async () => {
    const body = JSON.stringify({ email: "learner@acme.test", password: DEMO_PASSWORD });
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port: server.port, path: "/api/auth/login", method: "POST", setHost: false, agent: false,
          headers: { Host: "acme.localhost", "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) } },
        (reply) => {
          let text = "";
          reply.on("data", (chunk) => (text += chunk));
          reply.on("end", () => resolve({ status: reply.statusCode ?? 0, body: text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 50);
    });
    expect(res.status, res.body).toBe(200);
    expect(JSON.parse(res.body).payload.token).toBeTruthy();

    const bad = await request(server.port, "acme.localhost", "/api/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(bad.json()).toMatchObject({ error: true });
  });

  it("lets a client go that leaves before its body arrived, without an error, and answers the next one", async () => {
    const net = await import("node:net");
    await new Promise<void>((resolve) => {
      const socket = net.connect(server.port, "127.0.0.1", () => {
        socket.write("POST /api/auth/login HTTP/1.1\r\nHost: acme.localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"email\":");
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on("close", () => resolve());
      socket.on("error", () => resolve());
    });
    await new Promise((r) => setTimeout(r, 100));
    const next = await request(server.port, "acme.localhost", "/api/resolve?domain=acme.localhost");
    expect(next.status).toBe(200);
    expect(server.output()).not.toMatch(/unhandled|ClientGone/);
  });

  it("answers a host whose port makes no address with an error page, and stays up", async () => {
    const odd = await request(server.port, "acme.localhost:99999", "/api/resolve?domain=acme.localhost");
    expect(odd.status).toBe(500);
    const next = await request(server.port, "acme.localhost", "/api/resolve?domain=acme.localhost");
    expect(next.status).toBe(200);
  });

  it("still requires sign-in where the route does", async () => {
    const res = await request(server.port, "acme.localhost", "/api/auth/user");
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ error: true, status: 401 });
  });
});
