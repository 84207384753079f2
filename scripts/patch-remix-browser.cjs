// Two exact changes to what Remix puts in the browser's code (docs/decisions/014-speed.md, fifth round):
//  1. @remix-run/dev stands an empty CommonJS module in for every `*.server` module a route imports in the
//     browser build (and `*.client` in the server build). esbuild cannot tell that an empty CommonJS module
//     has no side effects, so each such import stayed in the browser's code, often as a chunk of its own
//     called at start-up. Marked `sideEffects: false`, an import whose names are not used (a loader's, once
//     Remix has dropped the loader) is left out like any other unused import. The module is empty.
//  2. @remix-run/react's browser code imports its single-fetch client (and turbo-stream with it: 2.6 KiB
//     gzipped on every page) although it runs only with the `v3_singleFetch` future flag, which Lectern
//     does not set. While remix.config.js does not set it, the three names are stand-ins that throw if
//     ever called; when it is set, the original imports are put back. Only the ESM build (what esbuild
//     bundles for the browser) is changed; the server runs the CommonJS build.
// Run by `npm run build` before `remix build`, and on install; idempotent; if the code a step expects is
// not found (another version), it says so and leaves that step out.
const fs = require("node:fs");
const path = require("node:path");

const root = path.join(__dirname, "..");
const modules = path.join(root, "node_modules", "@remix-run");
const singleFetchOn = /v3_singleFetch\s*:\s*true/.test(fs.readFileSync(path.join(root, "remix.config.js"), "utf8"));
const offStub = (names) =>
  names.map((n) => `const ${n} = () => { throw new Error("single fetch was left out of the browser build (scripts/patch-remix-browser.cjs)"); };`).join(" ") +
  " /* lectern: single fetch left out */";

const steps = [
  {
    name: "empty stand-in modules without side effects",
    file: path.join(modules, "dev", "dist", "compiler", "plugins", "emptyModules.js"),
    from: '            path: args.path,\n            namespace: "empty-module"\n',
    to: '            path: args.path,\n            /* lectern: empty modules without side effects */ sideEffects: false,\n            namespace: "empty-module"\n',
    wanted: true,
  },
  {
    name: "single fetch left out of RemixBrowser",
    file: path.join(modules, "react", "dist", "esm", "browser.js"),
    from: "import { decodeViaTurboStream, getSingleFetchDataStrategy } from './single-fetch.js';",
    to: offStub(["decodeViaTurboStream", "getSingleFetchDataStrategy"]),
    wanted: !singleFetchOn,
  },
  {
    name: "single fetch left out of the prefetch links",
    file: path.join(modules, "react", "dist", "esm", "components.js"),
    from: "import { singleFetchUrl } from './single-fetch.js';",
    to: offStub(["singleFetchUrl"]),
    wanted: !singleFetchOn,
  },
];

for (const step of steps) {
  const text = fs.readFileSync(step.file, "utf8");
  const [have, want] = step.wanted ? [step.from, step.to] : [step.to, step.from];
  if (text.includes(want)) continue;
  if (!text.includes(have)) {
    console.warn(`patch-remix-browser: ${step.name}: ${path.relative(root, step.file)} is not the expected version; left as it is`);
    continue;
  }
  fs.writeFileSync(step.file, text.replace(have, want));
  console.log(`patch-remix-browser: ${step.wanted ? "" : "undone: "}${step.name}`);
}
