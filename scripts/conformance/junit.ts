import fs from "node:fs";
import path from "node:path";

/**
 * The outcome of a JUnit run (jest-junit's files in `folder`): each `<testcase>` passed unless it holds a
 * `<failure>` or `<error>` (then named, with the first line of its message) or a `<skipped>`.
 */
export function readJunit(folder: string): { passed: number; failures: string[]; skipped: number } {
  const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((f) => f.endsWith(".xml")) : [];
  let passed = 0;
  let skipped = 0;
  const failures: string[] = [];
  const unescape = (s: string) =>
    s
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&");
  for (const file of files) {
    const xml = fs.readFileSync(path.join(folder, file), "utf8");
    for (const match of xml.matchAll(/<testcase\b([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const name = unescape(/\bname="([^"]*)"/.exec(match[1])?.[1] ?? "?");
      const suite = unescape(/\bclassname="([^"]*)"/.exec(match[1])?.[1] ?? "");
      const body = match[2] ?? "";
      if (/<(failure|error)\b/.test(body)) {
        const message = unescape(/<(?:failure|error)\b[^>]*>([\s\S]*?)<\/(?:failure|error)>/.exec(body)?.[1] ?? "").split("\n")[0];
        failures.push(`${suite === name ? name : `${suite} › ${name}`}: ${message.slice(0, 300)}`);
      } else if (/<skipped\b/.test(body)) skipped += 1;
      else passed += 1;
    }
  }
  return { passed, failures, skipped };
}
