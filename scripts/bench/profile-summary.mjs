// `node scripts/bench/profile-summary.mjs <file.cpuprofile> [top]`: where a Lectern server's CPU went, from
// a V8 profile written with `BENCH_PROFILE=<dir>` (docs/decisions/014-speed.md). Prints the share of each
// part of a request (a sample counts for the first part, in the order below, found on its stack) and the
// functions with the most time of their own (with a third argument, only within the parts whose name
// contains it, e.g. "middleware").
import fs from "node:fs";

const [file, topArg, only] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/bench/profile-summary.mjs <file.cpuprofile> [top]");
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const top = Number(topArg ?? 25);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const time = new Map();
profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const name = (n) =>
  `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.replace(/.*node_modules\//, "").replace(/^.*?\/(build|app|server|db)\//, "$1/")}:${n.callFrame.lineNumber}`;

const PARTS = [
  ["start-up (module loading)", /compileSourceTextModule|module_job|loadAndTranslate|wrapSafe|compileForInternalLoader|(^| )evaluate /],
  ["garbage collection", /^\(garbage collector\)/],
  ["idle", /^\((idle|program)\)/],
  ["route loaders and actions", /^(loader|action)\d* build\/index/],
  ["React render and the page's bytes", /^renderPage |^renderInFull |react-dom-server/],
  ["session and token lookup", /^(getAuth|findSession) /],
  ["Remix and React Router", / @remix-run\/(server-runtime|router|node|express)\//],
  ["Lectern's middleware", /build\/server\.js/],
  ["Express", / express\/lib\//],
  ["Node (HTTP, streams, buffers)", /node:/],
];
const parts = new Map();
const self = new Map();
let total = 0;
for (const [id, t] of time) {
  total += t;
  const stack = [];
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) stack.push(name(byId.get(cur)));
  const part = PARTS.find(([, re]) => stack.some((frame) => re.test(frame)))?.[0] ?? "other";
  if (!only || part.includes(only)) self.set(stack[0], (self.get(stack[0]) ?? 0) + t);
  parts.set(part, (parts.get(part) ?? 0) + t);
}
const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`${(total / 1000).toFixed(0)} ms of CPU in ${file}\n`);
for (const [part, t] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`${pct(t)}  ${part}`);
console.log(`\nmost time of their own${only ? ` (in ${only})` : ""}:`);
for (const [frame, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${frame}`);
