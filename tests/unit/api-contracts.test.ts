import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { anonymousViewer } from "../../app/access/viewer";
import { API_CALLS } from "~/api/calls/index.server";
import { call, type ApiCall } from "~/api/contract.server";
import { compileRoutes, dispatcherFor, dispatchApi, matchRoute } from "~/api/dispatch.server";
import { isFileReply, openApiDocument } from "~/api/openapi.server";
import { ROOT } from "../helpers/server";

/**
 * /api is declared once (app/api/calls/) and served one way (app/api/dispatch.server.ts; decisions 023 and
 * 027): every declared call is served by the dispatcher, nothing else answers /api, the examples fit their
 * schemas, and the description is valid OpenAPI 3.1. The dispatcher's own answers (404, 405 + Allow, 401,
 * 422 with fields, HEAD, a thrown error) are checked on calls made up here.
 */

// No organization, database or sign-in.
const stubContext = () =>
  ({
    organization: null,
    db: null,
    platform: { tenants: { markSuspect() {} } },
    cspNonce: "",
    requestId: "test",
    clientIp: "127.0.0.1",
    viewer: anonymousViewer(null, null, "en"),
  }) as never;

/** A path of the call with its parameters filled in. */
const sample = (call: ApiCall) =>
  call.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === "id" ? "1" : name === "type" ? "image" : name === "widget" ? "streak" : "x",
  );

describe("the /api declarations", { timeout: 120_000 }, () => {
  it("are each served by the dispatcher, for their own method", async () => {
    const routes = compileRoutes(API_CALLS);
    const unserved: string[] = [];
    for (const c of API_CALLS) {
      const found = matchRoute(routes, sample(c));
      if (found?.route.byMethod.get(c.method) !== c) unserved.push(`${c.method} ${c.path}`);
      const response = await dispatchApi(new Request(`http://acme.localhost${sample(c)}`, { method: c.method }), stubContext());
      if (response.status === 405) unserved.push(`${c.method} ${c.path}: 405`);
      if (response.status === 404 && !found) unserved.push(`${c.method} ${c.path}: unknown path`);
    }
    expect(unserved).toEqual([]);
  });

  it("are the only /api there is: no Remix route under /api, no handler outside app/api/calls", async () => {
    // Remix's routes are only those remix.config.js declares (its file convention is off): none is under /api.
    const paths: string[] = [];
    const define = (callback: (route: (p: string | undefined, file: string, options?: unknown, children?: () => void) => void) => void) => {
      const prefix: string[] = [];
      callback((p, _file, options, children) => {
        const full = [...prefix, p ?? ""].filter(Boolean).join("/");
        paths.push(`/${full}`);
        if (typeof options === "function") children = options as () => void;
        if (children) {
          prefix.push(p ?? "");
          children();
          prefix.pop();
        }
      });
      return {};
    };
    const config = (await import("../../remix.config.js")) as unknown as {
      default: { ignoredRouteFiles: string[] };
      pages: (d: typeof define) => unknown;
    };
    expect(config.default.ignoredRouteFiles).toEqual(["**/*"]);
    config.pages(define);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((p) => /^\/api(\/|$)/i.test(p))).toEqual([]);
    const refusals: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name) && fs.readFileSync(full, "utf8").includes("apiMethodNotAllowed("))
          refusals.push(path.relative(ROOT, full));
      }
    };
    walk(path.join(ROOT, "app"));
    // The dispatcher alone answers 405 (and app/utils/api.server.ts defines how).
    expect(refusals.sort()).toEqual(["app/api/dispatch.server.ts", "app/utils/api.server.ts"]);
    const keys = API_CALLS.map((c) => `${c.method} ${c.path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });
});

describe("the dispatcher", () => {
  const thing = z.object({ name: z.string().min(2) });
  const calls: ApiCall[] = [
    call({
      method: "GET",
      path: "/api/things",
      tag: "T",
      summary: "list",
      access: "public",
      query: z.object({ n: z.coerce.number().int().max(5).default(1) }),
      reply: z.unknown(),
      errors: [],
      example: {},
      handler: ({ query }) => ({ n: query.n }),
    }),
    call({
      method: "POST",
      path: "/api/things",
      tag: "T",
      summary: "add",
      access: "public",
      body: thing,
      status: 201,
      reply: thing,
      errors: [],
      example: {},
      handler: ({ body }) => body,
    }),
    call({
      method: "GET",
      path: "/api/things/mine",
      tag: "T",
      summary: "mine",
      access: "signed-in",
      reply: z.unknown(),
      errors: [],
      example: {},
      handler: () => ({}),
    }),
    call({
      method: "GET",
      path: "/api/things/{id}",
      tag: "T",
      summary: "one",
      access: "public",
      reply: z.unknown(),
      errors: [],
      example: {},
      handler: ({ params }) => ({ id: params.id }),
    }),
    call({
      method: "DELETE",
      path: "/api/things/{id}",
      tag: "T",
      summary: "boom",
      access: "public",
      reply: z.unknown(),
      errors: [],
      example: {},
      handler: () => {
        throw new Error("boom");
      },
    }),
    call({
      method: "PUT",
      path: "/api/things/{id}",
      tag: "T",
      summary: "thrown",
      access: "public",
      reply: z.unknown(),
      errors: [],
      example: {},
      handler: () => {
        throw new Response("teapot", { status: 418 });
      },
    }),
    call({
      method: "GET",
      path: "/api/things/{id}/cap",
      tag: "T",
      summary: "cap",
      access: "read:course",
      reply: z.unknown(),
      errors: [],
      example: {},
      handler: () => ({}),
    }),
  ];
  const dispatch = dispatcherFor(calls);
  const ask = (method: string, path: string, body?: unknown) =>
    dispatch(
      new Request(`http://acme.localhost${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "Content-Type": "application/json" } }),
      }),
      stubContext(),
    );

  it("wraps a plain value in the envelope with the call's status, and ranks a fixed segment before a parameter", async () => {
    expect(await (await ask("GET", "/api/things?n=3")).json()).toEqual({ payload: { n: 3 }, status: 200 });
    const added = await ask("POST", "/api/things", { name: "Ada", extra: 1 });
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({ payload: { name: "Ada" }, status: 201 });
    expect(await (await ask("GET", "/api/things/7/")).json()).toEqual({ payload: { id: "7" }, status: 200 });
    expect((await ask("GET", "/api/things/mine")).status).toBe(401);
  });

  it("answers an unknown path 404 and another method 405 with Allow, in the envelope", async () => {
    const missing = await ask("GET", "/api/nothing/here");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: true, payload: { code: "not_found" }, status: 404 });
    expect((await ask("GET", "/api/things/1/2/3")).status).toBe(404);
    const wrong = await ask("PATCH", "/api/things");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("Allow")).toBe("GET, POST");
    expect(await wrong.json()).toMatchObject({ error: true, payload: { code: "method_not_allowed" } });
  });

  it("answers HEAD as GET", async () => {
    const head = await ask("HEAD", "/api/things");
    expect(head.status).toBe(200);
  });

  it("checks who may call before the input: 401 signed out, 404 for a capability off an organization's host", async () => {
    const unauthenticated = await ask("GET", "/api/things/mine");
    expect(await unauthenticated.json()).toMatchObject({ payload: { code: "unauthenticated" }, status: 401 });
    expect((await ask("GET", "/api/things/1/cap")).status).toBe(404);
  });

  it("answers a bad query or body 422 with one message per field", async () => {
    const query = await ask("GET", "/api/things?n=9");
    expect(query.status).toBe(422);
    expect(Object.keys((await query.json()).payload.fields)).toEqual(["n"]);
    const body = await ask("POST", "/api/things", { name: "A" });
    expect(body.status).toBe(422);
    expect(await body.json()).toMatchObject({ payload: { code: "invalid", fields: { name: [expect.any(String)] } } });
    const notJson = await dispatch(
      new Request("http://acme.localhost/api/things", { method: "POST", body: "{", headers: { "Content-Type": "application/json" } }),
      stubContext(),
    );
    expect(await notJson.json()).toMatchObject({ payload: { code: "invalid_body" }, status: 422 });
  });

  it("answers a thrown Response as it is, and anything else thrown as a 500 in the envelope", async () => {
    const thrown = await ask("PUT", "/api/things/1");
    expect(thrown.status).toBe(418);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (e: unknown) => void errors.push(e);
    try {
      const failed = await ask("DELETE", "/api/things/1");
      expect(failed.status).toBe(500);
      expect(await failed.json()).toMatchObject({ error: true, payload: { code: "error" }, status: 500 });
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});

describe("the /api description", { timeout: 120_000 }, () => {
  it("has examples that fit their own schemas", () => {
    const problems: string[] = [];
    for (const call of API_CALLS) {
      const name = `${call.method} ${call.path}`;
      if (call.body && call.example.body === undefined && call.bodyType !== "multipart/form-data")
        problems.push(`${name}: no example body`);
      if (call.body && call.example.body !== undefined) {
        const r = call.body.safeParse(call.example.body);
        if (!r.success) problems.push(`${name} example body: ${r.error.message}`);
      }
      if (call.query && call.example.query) {
        const r = call.query.safeParse(call.example.query);
        if (!r.success) problems.push(`${name} example query: ${r.error.message}`);
      }
      if (!isFileReply(call.reply)) {
        if (call.example.reply === undefined) problems.push(`${name}: no example reply`);
        else {
          const r = call.reply.safeParse(call.example.reply);
          if (!r.success) problems.push(`${name} example reply: ${r.error.message}`);
        }
      }
      if (!call.summary || !call.tag) problems.push(`${name}: no summary`);
    }
    expect(problems).toEqual([]);
  });

  it("is valid OpenAPI 3.1, with one operation per contract", async () => {
    const document = openApiDocument(API_CALLS);
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    const operations = Object.values(document.paths ?? {}).flatMap((p) => Object.keys(p as object));
    expect(operations.length).toBe(API_CALLS.length);
  });
});
