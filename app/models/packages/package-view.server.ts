import type { TenantConn } from "../../../db/open";
import { aus, outline, type Cmi5Course, type MoveOn, inLanguage } from "./cmi5-structure";
import { getContentPackage } from "./install.server";
import type { TincanPackage } from "./tincan";

/*
 * What the lesson editor shows of an installed xAPI or cmi5 package (app/screens/lesson-scorm.tsx): its kind,
 * title and size, and its contents as the manifest gives them (a cmi5 course's blocks and AUs, each AU with
 * its moveOn rule, mastery score and whether it lives on another site; an xAPI package's launched activity).
 */

export type StructureRow =
  | { type: "block"; depth: number; title: string }
  | { type: "au"; depth: number; title: string; url: string; external: boolean; moveOn: MoveOn; masteryScore: number | null };

export interface ContentPackageView {
  kind: "xapi" | "cmi5";
  title: string;
  fileCount: number;
  unpackedBytes: number;
  rows: StructureRow[];
  auCount: number;
}

const isAbsolute = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url);

function rowsOf(course: Cmi5Course, language: string): StructureRow[] {
  return outline(course.children).map(
    ({ member: m, depth }): StructureRow =>
      m.kind === "block"
        ? { type: "block", depth, title: inLanguage(m.title, language) }
        : {
            type: "au",
            depth,
            title: inLanguage(m.title, language),
            url: m.url,
            external: isAbsolute(m.url),
            moveOn: m.moveOn,
            masteryScore: m.masteryScore,
          },
  );
}

export function contentPackageView(db: TenantConn, lessonId: number, language: string): ContentPackageView | null {
  const pkg = getContentPackage(db, lessonId);
  if (!pkg) return null;
  const base = { title: pkg.title, fileCount: pkg.fileCount, unpackedBytes: pkg.unpackedBytes };
  if (pkg.kind === "xapi") {
    const tincan = pkg.structure as TincanPackage;
    const launch = tincan.launch;
    return {
      ...base,
      kind: "xapi",
      auCount: 1,
      rows: [
        {
          type: "au",
          depth: 0,
          title: inLanguage(launch.name, language) || launch.id,
          url: launch.launch ?? "",
          external: false,
          moveOn: "CompletedOrPassed",
          masteryScore: null,
        },
      ],
    };
  }
  const course = pkg.structure as Cmi5Course;
  return { ...base, kind: "cmi5", auCount: aus(course.children).length, rows: rowsOf(course, language) };
}
