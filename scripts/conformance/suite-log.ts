/*
 * The log ADL's LRS suite writes (bin/console_runner.js, `logs/<uuid>.log`): a tree of suites and tests, each
 * with its status. The runner's own counts may not add up on newer Node (its issue 271), so the tests are
 * counted here, from the tree's leaves.
 */

export interface SuiteNode {
  title?: string;
  name?: string;
  status?: string;
  error?: unknown;
  tests?: Array<SuiteNode | null>;
}
export interface SuiteLog {
  summary?: { total?: number; passed?: number; failed?: number };
  log?: SuiteNode;
}

/** How many tests passed, and the path of each that did not (failed, cancelled, or not run), with its error. */
export function countResults(log: SuiteLog): { passed: number; failures: string[] } {
  let passed = 0;
  const failures: string[] = [];
  const walk = (node: SuiteNode | null | undefined, trail: string[]) => {
    if (!node) return;
    const here = node.title ? [...trail, node.title] : trail;
    const children = (node.tests ?? []).filter((t): t is SuiteNode => !!t);
    if (children.length === 0) {
      if (node.status === "passed") passed += 1;
      // Failed, cancelled or never run: not passed.
      else
        failures.push(
          `${here.join(" › ")}${node.status === "failed" ? "" : ` [${node.status ?? "not run"}]`}${node.error ? ` — ${String(node.error).slice(0, 300)}` : ""}`,
        );
      return;
    }
    for (const child of children) walk(child, here);
  };
  walk(log.log, []);
  return { passed, failures };
}
