// Remix's compiler stands an empty CommonJS module in for every `*.server` module a route imports in the
// browser build (and `*.client` in the server build). esbuild cannot tell that an empty CommonJS module
// has no side effects, so every such import stayed in the browser's code as a chunk of its own, called at
// start-up: ten of them on the learner home page, about 1 KiB gzipped (docs/decisions/014-speed.md, fifth
// round). Marked `sideEffects: false`, an import whose names are not used (a loader's, once Remix has
// dropped the loader) is left out like any unused import. Exact: the module is empty.
// Run by `npm run build` and on install; idempotent; if the code it expects is not found (another
// version), it says so and changes nothing.
const fs = require("node:fs");
const path = require("node:path");

const file = path.join(__dirname, "..", "node_modules", "@remix-run", "dev", "dist", "compiler", "plugins", "emptyModules.js");
const mark = "/* lectern: empty modules without side effects */";
const from = '            path: args.path,\n            namespace: "empty-module"\n';
const to = `            path: args.path,\n            ${mark} sideEffects: false,\n            namespace: "empty-module"\n`;

const text = fs.readFileSync(file, "utf8");
if (text.includes(mark)) process.exit(0);
if (!text.includes(from)) {
  console.warn("patch-remix-dev: emptyModules.js is not the expected version; left as it is");
  process.exit(0);
}
fs.writeFileSync(file, text.replace(from, to));
console.log("patch-remix-dev: empty modules marked without side effects");
