import { benchCaptions } from "./captions";
import { reportCertificates } from "./certificates";
import { benchClone } from "./clone";
import { benchGroups } from "./groups";
import { benchScorm } from "./scorm";

/**
 * The bench's part 5 (scripts/bench/index.ts): work done in the background or off the request path, each
 * printed as its figure and added to the run's JSON under its name. `only(part)` says whether `BENCH_ONLY`
 * asks for it.
 */
export async function reportBackground(json: Record<string, unknown>, only: (part: string) => boolean) {
  // Copying a large course in the background (docs/product.md §4: "up to about 10 minutes").
  if (only("clone")) {
    const clone = await benchClone({
      lessonCount: Number(process.env.BENCH_CLONE_LESSONS ?? 500),
      totalBytes: Number(process.env.BENCH_CLONE_BYTES ?? 1024 ** 3),
    });
    console.log(`  clone of ${clone.lessonCount} lessons and ${clone.totalMiB} MiB in ${clone.fileCount} files: ${clone.seconds} s`);
    json.clone = clone;
  }
  if (only("certificates")) await reportCertificates();
  if (only("scorm")) {
    const scorm = await benchScorm({
      files: Number(process.env.BENCH_SCORM_FILES ?? 5000),
      totalBytes: Number(process.env.BENCH_SCORM_BYTES ?? 200 * 1024 ** 2),
    });
    console.log(
      `  SCORM package of ${scorm.files} files, ${scorm.unpackedMiB} MiB: checked, unpacked and recorded in ${scorm.installSeconds} s; ${scorm.commitsPerSecond} runtime commits/s (model)`,
    );
    json.scorm = scorm;
  }
  if (only("captions")) {
    const c = benchCaptions();
    const { slowest } = c;
    console.log(
      `  caption upload, worst 1 MiB WebVTT (${slowest.what}): read in ${slowest.readMs} ms (lines alone ${slowest.floorMs} ms); target <= ${c.targetMs} ms:${c.ok ? " ok" : " MISS"}`,
    );
    json.captions = c;
  }
  const g = benchGroups();
  console.log(
    `  CSV import: ${g.importRowsPerSecond} rows/s (${g.importRows} rows); rule group recompute over ${g.recomputeUsers} users: ${g.recomputeMs} ms (${g.members} members)`,
  ); // groups and import (issue 14)
}
