import zlib from "node:zlib";

/**
 * A tiny zip writer for tests: it writes whatever names, modes and sizes it is told, including the
 * harmful ones real zip tools refuse to make (`../` names, symlinks, lying sizes).
 */
export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  /** Deflate the data (default: stored). */
  deflate?: boolean;
  /** Unix mode for the high bits of the external attributes (e.g. 0o120777 for a symlink). */
  mode?: number;
  /** Claim this uncompressed size instead of the real one. */
  declaredSize?: number;
}

export function makeZip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const raw = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? "", "utf8");
    const body = entry.deflate ? zlib.deflateRawSync(raw) : raw;
    const crc = zlib.crc32(raw);
    const size = entry.declaredSize ?? raw.length;
    const method = entry.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    const mode = entry.mode ?? (entry.name.endsWith("/") ? 0o040755 : 0o100644);
    central.writeUInt32LE(((mode & 0xffff) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, directory, end]);
}

export const manifest12 = (launch = "index.html", extra = "") => `<?xml version="1.0"?>
<manifest identifier="test" version="1" xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>Test course</title>
    <item identifier="i1" identifierref="r1"><title>First</title><adlcp:masteryscore>80</adlcp:masteryscore></item>
    <item identifier="i2" identifierref="r2" parameters="?page=2"><title>Second</title></item>
  </organization></organizations>
  <resources>
    <resource identifier="r1" type="webcontent" adlcp:scormtype="sco" href="${launch}"/>
    <resource identifier="r2" type="webcontent" adlcp:scormtype="sco" href="two/index.html"/>
  </resources>${extra}
</manifest>`;

/**
 * SCORM packages made in a test (issue 45): a tree of chapters and items, one page per item. Each SCO's
 * page calls the API as simple HTML content does: Initialize when it loads and Finish/Terminate as it goes
 * away, and nothing else unless `note` is given (then it also sets its location and suspend data to it).
 */
export interface TestItem {
  id: string;
  title: string;
  note?: string;
  hidden?: boolean;
  asset?: boolean;
  /** 2004: `<imsss:deliveryControls completionSetByContent="true" objectiveSetByContent="true"/>`. */
  setByContent?: boolean;
}
export interface TestChapter {
  title: string;
  items: TestItem[];
}

const scoPage = (version: "1.2" | "2004", item: TestItem) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${item.title}</title></head>
<body data-note="${item.note ?? ""}"><h1>${item.title}</h1><p><a id="missing" href="missing.html">A page the package lacks</a></p>
<script>
  var api = null;
  for (var w = window, i = 0; w && i < 10 && !api; i++, w = w === w.parent ? null : w.parent) api = w.${version === "1.2" ? "API" : "API_1484_11"} || null;
  var v12 = ${version === "1.2"};
  v12 ? api.LMSInitialize("") : api.Initialize("");
  var note = document.body.getAttribute("data-note");
  if (note) {
    v12 ? api.LMSSetValue("cmi.core.lesson_location", note) : api.SetValue("cmi.location", note);
    v12 ? api.LMSSetValue("cmi.suspend_data", note) : api.SetValue("cmi.suspend_data", note);
  }
  var done = false;
  function finish() { if (done) return; done = true; v12 ? api.LMSFinish("") : api.Terminate(""); }
  window.addEventListener("pagehide", finish);
  window.addEventListener("unload", finish);
</script></body></html>`;

export function scormZip(version: "1.2" | "2004", title: string, tree: Array<TestItem | TestChapter>): Buffer {
  const all: TestItem[] = [];
  const itemXml = (item: TestItem) => {
    all.push(item);
    const controls =
      version === "2004" && item.setByContent
        ? `<imsss:sequencing><imsss:deliveryControls completionSetByContent="true" objectiveSetByContent="true"/></imsss:sequencing>`
        : "";
    return `<item identifier="${item.id}" identifierref="r_${item.id}"${item.hidden ? ' isvisible="false"' : ""}><title>${item.title}</title>${controls}</item>`;
  };
  const organization = tree
    .map((node, n) =>
      "items" in node
        ? `<item identifier="chapter_${n}"><title>${node.title}</title>${node.items.map(itemXml).join("")}</item>`
        : itemXml(node),
    )
    .join("\n");
  const type = version === "1.2" ? "scormtype" : "scormType";
  const resources = all
    .map((i) => `<resource identifier="r_${i.id}" type="webcontent" adlcp:${type}="${i.asset ? "asset" : "sco"}" href="${i.id}.html"/>`)
    .join("\n");
  const namespaces =
    version === "1.2"
      ? 'xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"'
      : 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3" xmlns:imsss="http://www.imsglobal.org/xsd/imsss"';
  const manifest = `<?xml version="1.0"?>
<manifest identifier="test" version="1" ${namespaces}>
  <metadata><schema>ADL SCORM</schema><schemaversion>${version === "1.2" ? "1.2" : "2004 3rd Edition"}</schemaversion></metadata>
  <organizations default="org"><organization identifier="org"><title>${title}</title>
${organization}
  </organization></organizations>
  <resources>
${resources}
  </resources>
</manifest>`;
  return makeZip([
    { name: "imsmanifest.xml", data: manifest },
    ...all.map((i) => ({
      name: `${i.id}.html`,
      data: i.asset ? `<!doctype html><title>${i.title}</title><p>${i.title}</p>` : scoPage(version, i),
    })),
  ]);
}
