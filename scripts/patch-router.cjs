// Speeds up route matching in @remix-run/router (React Router 6, which Remix v2 runs on): it flattens,
// ranks and compiles every route on every match, and then tries every route in turn, which with
// Lectern's ~150 routes was the largest part of a small request's CPU time
// (docs/decisions/012-route-matching.md, 014-speed.md). Three changes, all exact:
//  1. the ranked branches of a routes array are kept (routes never change after start);
//  2. compiled path patterns are kept;
//  3. only the branches that can match are tried: a branch whose path starts with a fixed segment can
//     only match a pathname starting with that segment (case aside), so branches are indexed by it and
//     tried in their ranked order together with those starting with a parameter, a splat or nothing.
// Later steps (each described where it is) keep Remix's server route tree and React Router's static data
// routes, pass a loader the page's own Request when Remix's stripping of its parameters would not
// change it, and have React's renderToString join a page's pieces once. Run on `npm install`/`npm ci` (postinstall); idempotent, step by step; if the code a step expects is not
// found (another version), it says so and leaves that step out.
const fs = require("node:fs");
const path = require("node:path");

const file = path.join(__dirname, "..", "node_modules", "@remix-run", "router", "dist", "router.cjs.js");

const steps = [
  {
    mark: "/* lectern: memoised matching */",
    name: "ranked branches and compiled patterns memoised",
    edits: [
      [
        "  let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);\n",
        "  /* lectern: memoised matching */\n  let branches = __lecternBranches.get(routes);\n" +
          "  if (!branches) {\n    branches = flattenRoutes(routes);\n    rankRouteBranches(branches);\n    __lecternBranches.set(routes, branches);\n  }\n",
      ],
      [
        "function compilePath(path, caseSensitive, end) {\n",
        "function compilePath(path, caseSensitive, end) {\n" +
          "  const __key = path + '\\u0000' + caseSensitive + '\\u0000' + end;\n" +
          "  let __hit = __lecternCompiled.get(__key);\n" +
          "  if (!__hit) { __hit = __compilePath(path, caseSensitive, end); __lecternCompiled.set(__key, __hit); }\n" +
          "  return __hit;\n}\nfunction __compilePath(path, caseSensitive, end) {\n",
      ],
      ["'use strict';", "'use strict';\nconst __lecternBranches = new WeakMap();\nconst __lecternCompiled = new Map();"],
    ],
  },
  {
    mark: "/* lectern: branches by first segment */",
    name: "branches indexed by their first segment",
    edits: [
      [
        "  let decoded = decodePath(pathname);\n  for (let i = 0; matches == null && i < branches.length; ++i) {\n",
        "  let decoded = decodePath(pathname);\n  /* lectern: branches by first segment */\n  branches = __lecternCandidates(branches, decoded);\n" +
          "  for (let i = 0; matches == null && i < branches.length; ++i) {\n",
      ],
      [
        "function convertRouteMatchToUiMatch(match, loaderData) {\n",
        `const __lecternIndexes = new WeakMap();
function __lecternFirstSegment(path) {
  let start = 0;
  while (path.charCodeAt(start) === 47) start++;
  let end = path.indexOf("/", start);
  return path.slice(start, end === -1 ? path.length : end).toLowerCase();
}
function __lecternCandidates(branches, decoded) {
  if (decoded == null) return branches;
  let index = __lecternIndexes.get(branches);
  if (!index) {
    let open = [];
    let fixed = new Map();
    branches.forEach((branch, i) => {
      let first = __lecternFirstSegment(branch.path);
      if (first === "" || /[:*?]/.test(first)) open.push(i);
      else if (fixed.has(first)) fixed.get(first).push(i);
      else fixed.set(first, [i]);
    });
    let byFirst = new Map();
    for (let [first, list] of fixed) byFirst.set(first, list.concat(open).sort((a, b) => a - b).map(i => branches[i]));
    index = { open: open.map(i => branches[i]), byFirst };
    __lecternIndexes.set(branches, index);
  }
  return index.byFirst.get(__lecternFirstSegment(decoded)) || index.open;
}
function convertRouteMatchToUiMatch(match, loaderData) {
`,
      ],
    ],
  },
  // 4. The route tree a page render builds (docs/decisions/014-speed.md): Remix's createServerRoutes and
  // React Router's createStaticRouter rebuilt it from the same manifest and modules on every page, and
  // the fresh array defeated the memoised branches above. Both are pure functions of their inputs, so the
  // result is kept per manifest (Remix) and per routes array (React Router), checked on every call.
  {
    file: path.join(__dirname, "..", "node_modules", "@remix-run", "react", "dist", "routes.js"),
    mark: "/* lectern: server routes memoised */",
    name: "Remix's server route tree memoised",
    edits: [
      [
        "function createServerRoutes(manifest, routeModules, future, isSpaMode, parentId = \"\", ",
        `/* lectern: server routes memoised */
const __lecternServerRoutes = new WeakMap();
function createServerRoutes(manifest, routeModules, future, isSpaMode, parentId, routesByParentId, spaModeLazyPromise) {
  if (parentId !== undefined || routesByParentId !== undefined || spaModeLazyPromise !== undefined) {
    return __createServerRoutes(manifest, routeModules, future, isSpaMode, parentId, routesByParentId, spaModeLazyPromise);
  }
  let kept = __lecternServerRoutes.get(manifest);
  if (kept && kept.future === future && kept.isSpaMode === isSpaMode && kept.ids.every((id) => routeModules[id] === kept.modules[id])) {
    return kept.routes;
  }
  let ids = Object.keys(manifest);
  let modules = {};
  for (let id of ids) modules[id] = routeModules[id];
  let routes = __createServerRoutes(manifest, routeModules, future, isSpaMode);
  if (!isSpaMode) __lecternServerRoutes.set(manifest, { future, isSpaMode, ids, modules, routes });
  return routes;
}
function __createServerRoutes(manifest, routeModules, future, isSpaMode, parentId = "", `,
      ],
      [
        "    let children = createServerRoutes(manifest, routeModules, future, isSpaMode, route.id, routesByParentId, spaModeLazyPromise);",
        "    let children = __createServerRoutes(manifest, routeModules, future, isSpaMode, route.id, routesByParentId, spaModeLazyPromise);",
      ],
    ],
  },
  {
    file: path.join(__dirname, "..", "node_modules", "react-router-dom", "server.js"),
    mark: "/* lectern: static data routes memoised */",
    name: "React Router's static data routes memoised",
    edits: [
      [
        "function createStaticRouter(routes, context, opts = {}) {\n  let manifest = {};\n  let dataRoutes = router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest);\n",
        `/* lectern: static data routes memoised */
const __lecternDataRoutes = new WeakMap();
function createStaticRouter(routes, context, opts = {}) {
  let __kept = __lecternDataRoutes.get(routes);
  if (!__kept) {
    let manifest = {};
    __kept = { manifest, dataRoutes: router.UNSAFE_convertRoutesToDataRoutes(routes, reactRouter.UNSAFE_mapRouteProperties, undefined, manifest) };
    __lecternDataRoutes.set(routes, __kept);
  }
  let { manifest, dataRoutes } = __kept;
`,
      ],
    ],
  },
  {
    mark: "/* lectern: kept JSON */",
    name: "a loader's JSON kept as text and parsed from it, without a body stream",
    edits: [
      [
        "  return new Response(JSON.stringify(data), _extends({}, responseInit, {\n    headers\n  }));\n};",
        "  return __lecternJsonResponse(JSON.stringify(data), _extends({}, responseInit, {\n    headers\n  }));\n};",
      ],
      [
        "function isResponse(value) {\n  return value != null",
        "function isResponse(value) {\n  if (value != null && typeof value[__LECTERN_TEXT] === \"string\") return true;\n  return value != null",
      ],
      [
        "      if (contentType && /\\bapplication\\/json\\b/.test(contentType)) {\n        if (result.body == null) {",
        "      if (contentType && /\\bapplication\\/json\\b/.test(contentType)) {\n        const __kept = result[__LECTERN_TEXT];\n        if (typeof __kept === \"string\" && !result.bodyUsed) {\n          data = JSON.parse(__kept);\n        } else if (result.body == null) {",
      ],
      [
        "const json = function json(data, init) {\n",
        `/* lectern: kept JSON */
// Remix wraps what every loader returns in json(): a Response, whose body undici makes into a web stream
// at once (~45 µs), which the router then reads back and parses. Here json() keeps the text instead (under
// the symbol app/utils/json-reply.ts uses, so the /api lane writes it out as it is), the router parses that
// text (the same round trip: the page sees what the browser will), and a real Response with the same
// bytes is made only for whoever reads the body. Checking for a Response (isResponse) looks for the
// text first: the usual check reads \`body\`, which would make the stream after all.
const __LECTERN_TEXT = Symbol.for("lectern.jsonReply.text");
const __LECTERN_NULL_BODY = new Set([101, 103, 204, 205, 304]);
class __LecternKeptJson extends Response {
  #full = null;
  constructor(text, init) {
    super(null, init);
    this[__LECTERN_TEXT] = text;
  }
  __lecternReal() {
    return this.#full ?? (this.#full = new Response(this[__LECTERN_TEXT], { status: this.status, statusText: this.statusText, headers: this.headers }));
  }
  get body() { return this.__lecternReal().body; }
  get bodyUsed() { return this.#full ? this.#full.bodyUsed : false; }
  text() { return this.__lecternReal().text(); }
  json() { return this.__lecternReal().json(); }
  arrayBuffer() { return this.__lecternReal().arrayBuffer(); }
  blob() { return this.__lecternReal().blob(); }
  formData() { return this.__lecternReal().formData(); }
  clone() { return this.__lecternReal().clone(); }
}
function __lecternJsonResponse(text, init) {
  // What Response would refuse or treat otherwise (no text, a status without a body) is left to it.
  if (typeof text !== "string" || __LECTERN_NULL_BODY.has(init.status)) return new Response(text, init);
  return new __LecternKeptJson(text, init);
}
const json = function json(data, init) {
`,
      ],
    ],
  },
  {
    // Kept JSON answers bytes() too (Node 20.16 added it: read from the empty body the object was made
    // with, it gave nothing), and a clone carries the headers as they are when it is made.
    mark: "/* lectern: kept JSON bytes and clone */",
    name: "kept JSON answers bytes(), and clones with its current headers",
    edits: [
      [
        "  clone() { return this.__lecternReal().clone(); }\n}\nfunction __lecternJsonResponse",
        `  bytes() { return this.__lecternReal().bytes(); } /* lectern: kept JSON bytes and clone */
  clone() {
    const copy = this.__lecternReal().clone();
    return new Response(copy.body, { status: this.status, statusText: this.statusText, headers: this.headers });
  }
}
function __lecternJsonResponse`,
      ],
    ],
  },
  {
    file: path.join(__dirname, "..", "node_modules", "@remix-run", "server-runtime", "dist", "responses.js"),
    mark: "/* lectern: kept JSON is a Response */",
    name: "Remix's Response check knows kept JSON without reading its body",
    edits: [
      [
        "function isResponse(value) {\n  return value != null",
        "function isResponse(value) {\n  /* lectern: kept JSON is a Response */\n  if (value != null && typeof value[Symbol.for(\"lectern.jsonReply.text\")] === \"string\") return true;\n  return value != null",
      ],
    ],
  },
  {
    file: path.join(__dirname, "..", "node_modules", "@remix-run", "server-runtime", "dist", "data.js"),
    mark: "/* lectern: nothing to strip */",
    name: "a loader's Request passed on as it is when stripping would not change it",
    edits: [
      [
        "function stripIndexParam(request) {\n  let url = new URL(request.url);\n",
        "function stripIndexParam(request) {\n  if (__lecternUnchanged(request, \"index\")) return request;\n  let url = new URL(request.url);\n",
      ],
      [
        "function stripDataParam(request) {\n  let url = new URL(request.url);\n",
        "function stripDataParam(request) {\n  if (__lecternUnchanged(request, \"_data\")) return request;\n  let url = new URL(request.url);\n",
      ],
      [
        "function stripRoutesParam(request) {\n",
        `/* lectern: nothing to strip */
// Remix copies the Request twice for every loader (stripIndexParam, stripDataParam), each copy following
// the original's abort signal, which in undici costs more than the loader of a small page. A Request
// without a body whose URL would come out of the stripping exactly as it went in is passed on as it is.
function __lecternUnchanged(request, name) {
  if (request.body !== null) return false;
  let url = new URL(request.url);
  url.searchParams.delete(name);
  return url.href === request.url;
}
function stripRoutesParam(request) {
`,
      ],
    ],
  },
  {
    // Remix makes the map of route id -> route module anew for every page (236 routes: 1.5% of a learner
    // page). The server's build never changes while it runs, so the map is kept per build's route manifest
    // in production (a development build is loaded anew, with a new manifest, when it changes).
    file: path.join(__dirname, "..", "node_modules", "@remix-run", "server-runtime", "dist", "entry.js"),
    mark: "/* lectern: entry route modules kept */",
    name: "Remix's route module map kept per build",
    edits: [
      [
        "function createEntryRouteModules(manifest) {\n  return Object.keys(manifest).reduce(",
        `/* lectern: entry route modules kept */
let __lecternKeep;
const __lecternRouteModules = new WeakMap();
function createEntryRouteModules(manifest) {
  // Read on first use: the server sets NODE_ENV after this module is loaded (server/index.ts).
  if (__lecternKeep === undefined) __lecternKeep = process.env.NODE_ENV === "production";
  if (!__lecternKeep) return __createEntryRouteModules(manifest);
  let kept = __lecternRouteModules.get(manifest);
  if (!kept) {
    kept = __createEntryRouteModules(manifest);
    __lecternRouteModules.set(manifest, kept);
  }
  return kept;
}
function __createEntryRouteModules(manifest) {
  return Object.keys(manifest).reduce(`,
      ],
    ],
  },
  {
    // With the map above kept, the kept server route tree (an earlier step) is recognised by the map's
    // identity instead of comparing 236 modules one by one.
    file: path.join(__dirname, "..", "node_modules", "@remix-run", "react", "dist", "routes.js"),
    mark: "/* lectern: same route modules at a glance */",
    name: "Remix's kept server route tree recognised by its module map",
    edits: [
      [
        "if (kept && kept.future === future && kept.isSpaMode === isSpaMode && kept.ids.every((id) => routeModules[id] === kept.modules[id])) {",
        "/* lectern: same route modules at a glance */ if (kept && kept.future === future && kept.isSpaMode === isSpaMode && (kept.routeModules === routeModules || kept.ids.every((id) => routeModules[id] === kept.modules[id]))) {",
      ],
      [
        "if (!isSpaMode) __lecternServerRoutes.set(manifest, { future, isSpaMode, ids, modules, routes });",
        "if (!isSpaMode) __lecternServerRoutes.set(manifest, { future, isSpaMode, ids, modules, routes, routeModules });",
      ],
    ],
  },
  {
    // React's renderToString adds each of a page's thousands of small pieces to one string with `+=`; the
    // string V8 builds that way is flattened on first read, which cost 0.2 ms of a learner home's 2.5 ms
    // (docs/decisions/030-kept-markup.md). Collected in an array and joined once: the same text.
    file: path.join(__dirname, "..", "node_modules", "react-dom", "cjs", "react-dom-server-legacy.node.production.min.js"),
    mark: "/* lectern: page text joined once */",
    name: "React's renderToString joins the page's pieces once",
    edits: [
      ['function Vb(a,b,c,d){var f=!1,e=null,g="",h=!1;', 'function Vb(a,b,c,d){/* lectern: page text joined once */var f=!1,e=null,g=[],h=!1;'],
      [
        'Sb(a,{push:function(a){null!==a&&(g+=a);return!0},destroy:function(a){f=!0;e=a}});if(f)throw e;if(!h)throw Error("A component suspended while responding to synchronous input. This will cause the UI to be replaced with a loading indicator. To fix, updates that suspend should be wrapped with startTransition.");return g}',
        'Sb(a,{push:function(a){null!==a&&g.push(a);return!0},destroy:function(a){f=!0;e=a}});if(f)throw e;if(!h)throw Error("A component suspended while responding to synchronous input. This will cause the UI to be replaced with a loading indicator. To fix, updates that suspend should be wrapped with startTransition.");return g.join("")}',
      ],
    ],
  },
];

function patch() {
  for (const target of new Set(steps.map((step) => step.file ?? file))) patchFile(target, steps.filter((step) => (step.file ?? file) === target));
}

function patchFile(file, steps) {
  if (!fs.existsSync(file)) return console.log(`patch-router: ${path.basename(file)} not installed; nothing to do`);
  let source = fs.readFileSync(file, "utf8");
  let changed = false;
  for (const step of steps) {
    if (source.includes(step.mark)) {
      console.log(`patch-router: ${step.name}: already applied`);
      continue;
    }
    if (!step.edits.every(([before]) => source.includes(before))) {
      console.log(`patch-router: ${step.name}: this version of ${path.basename(file)} looks different; left as it is`);
      continue;
    }
    for (const [before, after] of step.edits) source = source.replace(before, after);
    changed = true;
    console.log(`patch-router: ${step.name}`);
  }
  if (!changed) return;
  fs.writeFileSync(`${file}.lectern-tmp`, source);
  fs.renameSync(`${file}.lectern-tmp`, file);
}

try {
  patch();
} catch (error) {
  console.log(`patch-router: skipped (${error.message})`);
}
