/**
 * Makes `GolfOnePagePerSco_SCORM12.zip` (the demo's multi-SCO package, issue 45) from the Golf Examples'
 * pages in `RuntimeBasicCalls_SCORM20043rdEdition.zip` (Rustici Software, CC BY 3.0; see README.md):
 * a SCORM 1.2 package whose every page is a SCO of its own, in four chapters. Each page calls only
 * LMSInitialize when it opens and LMSFinish when it goes away, as simple HTML content does, so the LMS sets
 * its status at exit (docs/decisions/020-scorm.md). Run it again after changing it:
 *
 *   node --import tsx scripts/demo/scorm/make-golf-pages.ts
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import yauzl from "yauzl";
import { makeZip, type ZipEntry } from "../../../tests/helpers/zip";

const here = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(here, "RuntimeBasicCalls_SCORM20043rdEdition.zip");
const TARGET = path.join(here, "GolfOnePagePerSco_SCORM12.zip");

const CHAPTERS: Array<{ title: string; pages: Array<[file: string, title: string]> }> = [
  {
    title: "Playing the game",
    pages: [
      ["Playing/Playing.html", "Play of the game"],
      ["Playing/Par.html", "Par"],
      ["Playing/Scoring.html", "Scoring"],
      ["Playing/OtherScoring.html", "Other scoring systems"],
      ["Playing/RulesOfGolf.html", "Rules of golf"],
    ],
  },
  {
    title: "Etiquette",
    pages: [
      ["Etiquette/Course.html", "Care for the course"],
      ["Etiquette/Distracting.html", "Not distracting others"],
      ["Etiquette/Play.html", "Playing along"],
    ],
  },
  {
    title: "Handicapping",
    pages: [
      ["Handicapping/Overview.html", "Overview"],
      ["Handicapping/CalculatingHandicap.html", "Calculating a handicap"],
      ["Handicapping/CalculatingScore.html", "Calculating a score"],
      ["Handicapping/Example.html", "An example"],
    ],
  },
  {
    title: "Having fun",
    pages: [
      ["HavingFun/HowToHaveFun.html", "How to have fun"],
      ["HavingFun/MakeFriends.html", "Making friends on the course"],
    ],
  },
];

/** What each page runs instead of the original's 2004 helper: the two calls, nothing reported. */
const SCO12 = `/* Lectern demo: a SCO that only opens and closes its session (SCORM 1.2). */
(function () {
  var api = null;
  for (var w = window, i = 0; w && i < 10 && !api; i++, w = w === w.parent ? null : w.parent) api = w.API || null;
  if (!api) return;
  api.LMSInitialize("");
  var done = false;
  function finish() {
    if (done) return;
    done = true;
    api.LMSFinish("");
  }
  window.addEventListener("pagehide", finish);
  window.addEventListener("unload", finish);
})();
`;

function readZip(file: string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith("/")) return zip.readEntry();
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(files));
      zip.readEntry();
    });
  });
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

async function main() {
  const source = await readZip(SOURCE);
  const pages = CHAPTERS.flatMap((c) => c.pages.map(([file]) => file));
  const folders = [...new Set(pages.map((p) => p.split("/")[0]!))];
  const entries: ZipEntry[] = [];
  for (const [name, data] of source) {
    const folder = name.split("/")[0]!;
    if (pages.includes(name)) {
      const html = data.toString("utf8").replace('src="../shared/scormfunctions.js"', 'src="../shared/sco12.js"');
      if (!html.includes("../shared/sco12.js")) throw new Error(`${name}: no SCORM helper to replace`);
      entries.push({ name, data: html, deflate: true });
    } else if (folders.includes(folder) && !name.endsWith(".html") && !name.endsWith(".js")) {
      entries.push({ name, data, deflate: !/\.(jpe?g|png)$/i.test(name) });
    }
  }
  for (const shared of ["shared/style.css", "shared/contentfunctions.js", "shared/cclicense.png", "shared/background.jpg"])
    entries.push({ name: shared, data: source.get(shared)!, deflate: shared.endsWith(".css") || shared.endsWith(".js") });
  entries.push({ name: "shared/sco12.js", data: SCO12, deflate: true });

  let n = 0;
  const organization = CHAPTERS.map(
    (chapter, c) =>
      `      <item identifier="chapter_${c + 1}">\n        <title>${escape(chapter.title)}</title>\n` +
      chapter.pages
        .map(([, title]) => `        <item identifier="page_${++n}" identifierref="resource_${n}"><title>${escape(title)}</title></item>\n`)
        .join("") +
      `      </item>`,
  ).join("\n");
  const resources = pages
    .map(
      (file, i) =>
        `    <resource identifier="resource_${i + 1}" type="webcontent" adlcp:scormtype="sco" href="${file}">\n` +
        `      <file href="${file}"/>\n      <file href="shared/sco12.js"/>\n      <file href="shared/contentfunctions.js"/>\n      <file href="shared/style.css"/>\n    </resource>`,
    )
    .join("\n");
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<!--
  Golf Explained, one page at a time: a multi-SCO SCORM 1.2 package for Lectern's demo, made by
  scripts/demo/scorm/make-golf-pages.ts from the Golf Examples by Rustici Software (scorm.com), licensed
  Creative Commons Attribution 3.0. Changed: every page is a SCO of its own, grouped in chapters; the pages
  load a small helper that opens and closes the SCORM session instead of the original's 2004 one.
-->
<manifest identifier="lectern.demo.golf.onepagepersco" version="1"
          xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
          xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="golf_pages">
    <organization identifier="golf_pages">
      <title>Golf Explained, one page at a time</title>
${organization}
    </organization>
  </organizations>
  <resources>
${resources}
  </resources>
</manifest>
`;
  entries.unshift({ name: "imsmanifest.xml", data: manifest, deflate: true });
  fs.writeFileSync(TARGET, makeZip(entries));
  console.log(`${TARGET}: ${entries.length} files, ${n} SCOs`);
}

await main();
