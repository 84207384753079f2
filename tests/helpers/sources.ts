import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./server";

/** The source files (ts, tsx, js, mjs) under a folder of the repository, as paths from its root. */
export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx|js|mjs)$/.test(entry.name) ? [rel] : [];
  });
}
