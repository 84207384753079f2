import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { textsScript } from "../../app/utils/i18n.server";
import { ROOT } from "./settings";
import { atMost, type Report } from "./table";

/** The JavaScript a learner's browser loads for the home page (entry, root and home route), gzipped. */
function learnerHomeJs() {
  const manifestFile = fs.readdirSync(path.join(ROOT, "public", "build")).find((f) => f.startsWith("manifest-"));
  const text = fs.readFileSync(path.join(ROOT, "public", "build", manifestFile!), "utf8");
  const manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, { module: string; imports?: string[] }>;
  };
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of ["root", "pages/index"]) {
    files.add(manifest.routes[id].module);
    for (const f of manifest.routes[id].imports ?? []) files.add(f);
  }
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = fs.readFileSync(path.join(ROOT, "public", file));
    raw += bytes.length;
    gzip += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  return { files: files.size, rawKiB: Math.round(raw / 102.4) / 10, gzipKiB: Math.round(gzip / 102.4) / 10 };
}

/** The learner home's JavaScript row, and the size of the texts script printed beside it. */
export function reportJs({ table, json }: Report) {
  const js = learnerHomeJs();
  // 90 KiB until decision 041: Remix as published ships single fetch (and turbo-stream) to the browser
  // whether or not `v3_singleFetch` is on, 2.5 KiB gzipped that the dropped patch had left out.
  table.push({ what: `learner home JavaScript, KiB gzipped (${js.files} files, ${js.rawKiB} KiB raw)`, ...atMost(js.gzipKiB, 92.5) });
  // Not in that row: the language's texts, a script of their own loaded once per language and deploy
  // (app/utils/i18n.server.ts); they were inside every page before (docs/decisions/014-speed.md, "Client JavaScript").
  const texts = zlib.gzipSync(Buffer.from(textsScript("en").body), { level: 9 }).length;
  console.log(`  the English texts script: ${Math.round(texts / 102.4) / 10} KiB gzipped, cached for a year`);
  json.texts_gzip_kib = Math.round(texts / 102.4) / 10;
}
