import fs from "node:fs";
import { anonymousViewer } from "../../app/access/viewer";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import type { ZodTypeAny } from "zod";
import type { ApiCall, Method } from "~/api/contract.server";
import { API_CALLS } from "~/api/calls/index.server";
import { routeOfPath } from "~/api/contract.server";
import { isFileReply, openApiDocument } from "~/api/openapi.server";

const routeOf = (call: ApiCall) => call.route ?? routeOfPath(call.path);
import { ROOT } from "../helpers/server";

/**
 * The /api description against the code (docs/decisions/023-openapi-and-logs.md): every route module
 * under app/routes/api.* has a contract for each method it answers, the request schemas described are
 * the very objects the routes validate with, the examples fit their schemas, and the document is valid
 * OpenAPI 3.1.
 */
const routesDir = path.join(ROOT, "app", "routes");
const routeFiles = fs
  .readdirSync(routesDir)
  .filter((f) => /^api\..+\.tsx?$/.test(f) && f !== "api.$.ts")
  .sort();
const METHODS: Method[] = ["GET", "POST", "PUT", "DELETE"];
/** Calls whose one handler answers any method alike; spec §7 names GET and POST, and so do their contracts. */
const ANY_METHOD = new Set(["api.auth.user", "api.auth.sso.$driver.redirect", "api.auth.sso.$driver.callback", "api.auth.sso.$driver.callback-raw"]);

function callsOf(route: string) {
  return API_CALLS.filter((c) => !c.handler && routeOf(c) === route);
}

// No organization, database or sign-in: enough for the method check, which every route makes first.
const stubContext = () => ({ organization: null, db: null, platform: null, cspNonce: "", requestId: "test", clientIp: "127.0.0.1", viewer: anonymousViewer(null, null, "en") });

/** The methods a route module answers: every method it does not refuse with the 405 envelope. */
async function answeredMethods(mod: Record<string, unknown>) {
  const answered: Method[] = [];
  for (const method of METHODS) {
    const handler = (method === "GET" ? mod.loader : mod.action) as ((args: unknown) => Promise<unknown>) | undefined;
    if (!handler) continue;
    const request = new Request("http://acme.localhost/api/x", { method, headers: { "Content-Type": "application/json" }, body: method === "GET" ? undefined : "{}" });
    let status = 0;
    try {
      const reply = await handler({ request, context: stubContext(), params: { id: "1", driver: "x", widget: "streak", type: "image" } });
      status = reply instanceof Response ? reply.status : 200;
    } catch (thrown) {
      // Past the method check a route asks for the database or a sign-in, which the stub does not have.
      status = thrown instanceof Response ? thrown.status : 500;
    }
    if (status !== 405) answered.push(method);
  }
  return answered;
}

/** `import { a, b as c } from "~/x"` lines of a source file: local name → [module file, exported name]. */
function importsOf(source: string) {
  const found = new Map<string, [string, string]>();
  for (const m of source.matchAll(/import\s*\{([^}]+)\}\s*from\s*"(~\/[^"]+)"/g)) {
    const base = path.join(ROOT, "app", m[2].slice(2));
    const file = [".ts", ".tsx"].map((e) => base + e).find((f) => fs.existsSync(f));
    if (!file) continue;
    for (const part of m[1].split(",")) {
      const [name, alias] = part.replace(/^\s*type\s+/, "").trim().split(/\s+as\s+/);
      if (name) found.set((alias ?? name).trim(), [file, name.trim()]);
    }
  }
  return found;
}

/** Names of the schemas a source validates requests with. */
function validatedNames(source: string) {
  const names = new Set<string>();
  for (const m of source.matchAll(/parse(?:ApiBody|Query)\(request, context, ([^)]+)\)/g)) names.add(m[1].trim());
  for (const m of source.matchAll(/\b(\w+)\.safeParse\(/g)) names.add(m[1]);
  // Path parameters and the parts of a rule are checked inside the call, not described as a body or query.
  for (const skip of ["paramsSchema", "idSchema", "ruleSchema", "id", "q", "parsed", "query", "page"]) names.delete(skip);
  return names;
}

function described(calls: ApiCall[]) {
  return new Set<unknown>(calls.flatMap((c) => [c.body, c.query, ...(c.validates ?? [])]).filter(Boolean));
}

describe("the /api description", { timeout: 120_000 }, () => {
  it("covers every /api route module, for each method it answers", async () => {
    const missing: string[] = [];
    for (const file of routeFiles) {
      const route = file.replace(/\.tsx?$/, "");
      const mod = (await import(path.join(routesDir, file))) as Record<string, unknown>;
      const answered = await answeredMethods(mod);
      const documented = new Set(callsOf(route).map((c) => c.method));
      for (const method of answered) if (!documented.has(method) && !ANY_METHOD.has(route)) missing.push(`${method} ${route}`);
      for (const method of documented) if (!answered.includes(method)) missing.push(`${route} describes ${method}, which it refuses`);
    }
    expect(missing, "route modules without a contract (app/api/contracts/*)").toEqual([]);
    // …and no contract describes a route module that does not exist.
    const routes = new Set(routeFiles.map((f) => f.replace(/\.tsx?$/, "")));
    expect(API_CALLS.filter((c) => !c.handler).map(routeOf).filter((r) => !routes.has(r))).toEqual([]);
  });

  it("describes the very schemas the routes validate with", async () => {
    const problems: string[] = [];
    const helperUsers = new Map<string, string[]>();
    for (const file of routeFiles) {
      const route = file.replace(/\.tsx?$/, "");
      const source = fs.readFileSync(path.join(routesDir, file), "utf8");
      const mod = (await import(path.join(routesDir, file))) as Record<string, unknown>;
      const imports = importsOf(source);
      const calls = callsOf(route);
      const schemas = described(calls);
      if (/parseApiBody\(request, context, z\./.test(source) || /\bz\.[a-z]+\([^;]*\)\.safeParse\(/.test(source)) {
        problems.push(`${route}: validates with an inline schema; name and export it so its contract can point at it`);
      }
      for (const name of validatedNames(source)) {
        let schema: unknown = mod[name];
        if (schema === undefined && imports.has(name)) {
          const [from, exported] = imports.get(name)!;
          schema = ((await import(from)) as Record<string, unknown>)[exported];
        }
        if (schema === undefined) problems.push(`${route}: validates with ${name}, which is not exported`);
        else if (!schemas.has(schema)) problems.push(`${route}: validates with ${name}, which its contract does not describe`);
      }
      // The generic resource calls validate with the resource's own schemas (app/utils/resource.server.ts).
      const generic = source.match(/export const \{ loader, action \} = (collection|item|search|move)Route\((\w+|"[^"]+")/);
      if (generic) {
        const { pageSchema } = await import("~/utils/pagination");
        const { searchSchema } = await import("~/api/resource.server");
        const { moveSchema } = await import("~/models/ordering.server");
        const [, kind, name] = generic;
        const resource = kind === "move" ? null : await (async () => {
          const [from, exported] = imports.get(name)!;
          return ((await import(from)) as Record<string, { createSchema: ZodTypeAny; updateSchema: ZodTypeAny }>)[exported];
        })();
        const want = (method: Method, field: "body" | "query", schema: unknown) => {
          const call = calls.find((c) => c.method === method);
          if (call && call[field] !== schema) problems.push(`${route}: ${method} ${field} is not the one ${kind}Route validates with`);
        };
        if (kind === "collection") {
          want("GET", "query", pageSchema);
          want("POST", "body", resource!.createSchema);
        }
        if (kind === "item") want("PUT", "body", resource!.updateSchema);
        if (kind === "search") want("GET", "query", searchSchema);
        if (kind === "move") want("POST", "body", moveSchema);
      }
      for (const [from] of imports.values()) {
        if (/app\/(api\/[^/]+|screens\/[^/]+-api)\.server\.tsx?$/.test(from)) helperUsers.set(from, [...(helperUsers.get(from) ?? []), route]);
      }
    }
    // Shared /api handlers (e.g. app/api/groups.server.ts): what they validate with is described by a route that uses them.
    for (const [helper, routes] of helperUsers) {
      const source = fs.readFileSync(helper, "utf8");
      const mod = (await import(helper)) as Record<string, unknown>;
      const imports = importsOf(source);
      const schemas = described(routes.flatMap(callsOf));
      for (const name of validatedNames(source)) {
        let schema: unknown = mod[name];
        if (schema === undefined && imports.has(name)) {
          const [from, exported] = imports.get(name)!;
          schema = ((await import(from)) as Record<string, unknown>)[exported];
        }
        if (schema !== undefined && !schemas.has(schema)) problems.push(`${path.relative(ROOT, helper)}: validates with ${name}, which no contract of ${routes.join(", ")} describes`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("has examples that fit their own schemas", () => {
    const problems: string[] = [];
    for (const call of API_CALLS) {
      const name = `${call.method} ${call.path}`;
      if (call.body && call.example.body === undefined && call.bodyType !== "multipart/form-data") problems.push(`${name}: no example body`);
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
