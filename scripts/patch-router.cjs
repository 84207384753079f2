// Speeds up route matching in @remix-run/router (React Router 6, which Remix v2 runs on): it flattens,
// ranks and compiles every route on every match, which with Lectern's ~150 routes was the largest part
// of a small request's CPU time (docs/decisions/012-route-matching.md). Two memoisations, both exact:
// the ranked branches of a routes array (routes never change after start), and compiled path patterns.
// Run on `npm install`/`npm ci` (postinstall); idempotent; if the code it expects is not found (another
// version), it says so and changes nothing.
const fs = require("node:fs");
const path = require("node:path");

const file = path.join(__dirname, "..", "node_modules", "@remix-run", "router", "dist", "router.cjs.js");
const MARK = "/* lectern: memoised matching */";

function patch() {
  if (!fs.existsSync(file)) return console.log("patch-router: @remix-run/router not installed; nothing to do");
  let source = fs.readFileSync(file, "utf8");
  if (source.includes(MARK)) return console.log("patch-router: already applied");
  const branchesBefore = "  let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);\n";
  const branchesAfter =
    `  ${MARK}\n  let branches = __lecternBranches.get(routes);\n` +
    "  if (!branches) {\n    branches = flattenRoutes(routes);\n    rankRouteBranches(branches);\n    __lecternBranches.set(routes, branches);\n  }\n";
  const compileBefore = "function compilePath(path, caseSensitive, end) {\n";
  const compileAfter =
    "function compilePath(path, caseSensitive, end) {\n" +
    "  const __key = path + '\\u0000' + caseSensitive + '\\u0000' + end;\n" +
    "  let __hit = __lecternCompiled.get(__key);\n" +
    "  if (!__hit) { __hit = __compilePath(path, caseSensitive, end); __lecternCompiled.set(__key, __hit); }\n" +
    "  return __hit;\n}\nfunction __compilePath(path, caseSensitive, end) {\n";
  if (!source.includes(branchesBefore) || !source.includes(compileBefore)) {
    return console.log("patch-router: this version of @remix-run/router looks different; left as it is");
  }
  source = source.replace(branchesBefore, branchesAfter).replace(compileBefore, compileAfter);
  source = source.replace("'use strict';", "'use strict';\nconst __lecternBranches = new WeakMap();\nconst __lecternCompiled = new Map();");
  fs.writeFileSync(`${file}.lectern-tmp`, source);
  fs.renameSync(`${file}.lectern-tmp`, file);
  console.log("patch-router: route matching memoised");
}

try {
  patch();
} catch (error) {
  console.log(`patch-router: skipped (${error.message})`);
}
