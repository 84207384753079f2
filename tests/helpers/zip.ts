import { makeZip, type ZipEntry } from "../../scripts/demo/zip";

export { makeZip, type ZipEntry };
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
