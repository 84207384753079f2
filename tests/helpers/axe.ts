import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "puppeteer";

/** axe-core's browser bundle, evaluated in the page under test. */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe-core's rules that depend on colours: all a theme changes. */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * Every violation axe-core finds in the page's document, with its default rules (best practices included), of
 * any impact; only `rules` when given.
 */
export async function axeViolations(page: Page, rules?: string[]): Promise<Violation[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(
    (only) =>
      (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }).axe.run(document, {
        resultTypes: ["violations"],
        ...(only ? { runOnly: { type: "rule", values: only } } : {}),
      }),
    rules ?? null,
  )) as { violations: Violation[] };
  return result.violations;
}

/** One readable line per violation, with the first few elements it names and why. */
export const describeViolations = (list: Violation[]) =>
  list.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help}\n${v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(" ")} — ${n.failureSummary?.split("\n").slice(1, 2).join("")}`)
        .join("\n")}`,
  );
