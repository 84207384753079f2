// `node scripts/bench/js-chunks.mjs [n]` after `npm run build`: the files the learner home page loads (as the bench's
// learnerHomeJs() counts them), each gzipped, with the n largest inputs of each from build/metafile.js.json.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
const dir = "public/build";
const mf = fs.readdirSync(dir).find((f) => f.startsWith("manifest-"));
const text = fs.readFileSync(path.join(dir, mf), "utf8");
const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1));
const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
for (const id of ["root", "pages/index"]) {
  files.add(manifest.routes[id].module);
  for (const f of manifest.routes[id].imports ?? []) files.add(f);
}
const meta = JSON.parse(fs.readFileSync("build/metafile.js.json", "utf8"));
let total = 0;
const rows = [];
for (const f of files) {
  const bytes = fs.readFileSync(path.join("public", f));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  total += gz;
  const out = meta.outputs["public" + f] ?? Object.entries(meta.outputs).find(([k]) => k.endsWith(f))?.[1];
  const inputs = out ? Object.entries(out.inputs).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput) : [];
  rows.push([gz, f, inputs]);
}
rows.sort((a, b) => b[0] - a[0]);
for (const [gz, f, inputs] of rows) {
  console.log((gz / 1024).toFixed(1).padStart(6), f);
  for (const [i, v] of inputs.slice(0, +process.argv[2] || 8))
    if (v.bytesInOutput > 300) console.log("        ", String(v.bytesInOutput).padStart(7), i);
}
console.log("total", (total / 1024).toFixed(1), files.size);
