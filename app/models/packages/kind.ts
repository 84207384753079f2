/*
 * Which kind of package a zip is, from the manifest at its root (docs/decisions/044-xapi-cmi5-packages.md):
 * `cmi5.xml` a cmi5 course structure, `tincan.xml` an xAPI package, `imsmanifest.xml` SCORM. A package may
 * carry more than one (an export for several players): cmi5 is chosen before xAPI, and xAPI before SCORM,
 * as the richer tracking. A manifest only in a folder is a package zipped one level too deep: refused, naming it.
 */

export type PackageKind = "scorm" | "xapi" | "cmi5";
export const MANIFESTS: Array<[string, PackageKind]> = [
  ["cmi5.xml", "cmi5"],
  ["tincan.xml", "xapi"],
  ["imsmanifest.xml", "scorm"],
];

export type KindFound =
  | { kind: PackageKind; manifest: string }
  | { problem: "no_manifest" }
  | { problem: "manifest_not_at_root"; path: string };

/** The kind of a package from the names of its entries (`folder/file`, as unpack.server.ts lists them). */
export function packageKind(entries: readonly string[]): KindFound {
  const lower = new Map(entries.map((e) => [e.toLowerCase(), e]));
  for (const [manifest, kind] of MANIFESTS) {
    const name = lower.get(manifest);
    if (name) return { kind, manifest: name };
  }
  for (const [manifest] of MANIFESTS) {
    const nested = entries.find((e) => e.toLowerCase().endsWith(`/${manifest}`));
    if (nested) return { problem: "manifest_not_at_root", path: nested };
  }
  return { problem: "no_manifest" };
}
