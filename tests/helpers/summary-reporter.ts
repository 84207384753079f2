import fs from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends every run with one plain line, `Tests: N passed, N failed, N skipped`, that CI can read; also written
 * to the file LECTERN_TEST_SUMMARY names, if any, for scripts/test.mjs to print last.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      if (module.state() === "failed" && ![...module.children.allTests()].length) failed++;
    }
    const line = `Tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`;
    process.stdout.write(`\n${line}`);
    if (process.env.LECTERN_TEST_SUMMARY) fs.writeFileSync(process.env.LECTERN_TEST_SUMMARY, line);
  }
}
