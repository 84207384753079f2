import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../helpers/sources";

/**
 * Issue 44, item 4: a page's action reads its form through `readForm` (app/utils/form-data.server.ts), which
 * answers a body that is not a form with 415 and one that cannot be read with 400, translated; reading it with
 * `request.formData()` made a JSON, text/plain, empty or broken multipart body a 500 with a stack on stderr.
 * tests/integration/form-bodies.test.ts posts such bodies to every action; this test fails as soon as a module
 * of app/ or server/ reads a form any other way, apart from the readers listed here with why.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const THE_READER = "app/utils/form-data.server.ts";

/** Who else may read a body as a form, and why it is not a page's action. */
const OTHER_READERS: Record<string, string> = {
  // /api calls answer in the envelope: an unreadable body is their 422 `invalid_body` (decision 004).
  "app/utils/api.server.ts": "/api: parseApiBody",
  "app/api/calls/sso.server.ts": "/api: the SSO callback's answer, unreadable is an invalid answer",
  // Request and Response stand-ins, answering formData() as the real one does.
  "app/utils/kept-body.ts": "a kept body's stand-in",
  "server/lane-request.ts": "the /api lane's Request",
};

/** How one module's text reads a request's body as a form other than through `readForm`. */
export function formReads(file: string, text: string): string[] {
  if (file === THE_READER || OTHER_READERS[file]) return [];
  const found: string[] = [];
  if (/\.formData\s*\(/.test(text)) found.push("calls formData()");
  if (/parseMultipartFormData/.test(text) && !file.startsWith("app/models/")) found.push("parses multipart itself");
  return found;
}

describe("every page action reads its form through readForm", () => {
  it("no module of app/ or server/ calls formData() but the reader (and the listed, reasoned exceptions)", () => {
    const files = [...sourceFiles("app"), ...sourceFiles("server")];
    expect(files.length).toBeGreaterThan(100);
    for (const listed of Object.keys(OTHER_READERS)) expect(files, `${listed} is listed but gone`).toContain(listed);
    const findings = files.flatMap((file) =>
      formReads(file, fs.readFileSync(path.join(ROOT, file), "utf8")).map((what) => `${file}: ${what}`),
    );
    expect(findings).toEqual([]);
  });

  it("finds each way around it (the check can fail)", () => {
    // /theme as it was before issue 44.
    expect(formReads("app/pages/theme.ts", "schema.safeParse(Object.fromEntries(await request.formData()));")).toEqual([
      "calls formData()",
    ]);
    expect(formReads("app/screens/x.tsx", "const form = await args.request.formData ();")).toEqual(["calls formData()"]);
    expect(formReads("app/kernel/x.ts", "await unstable_parseMultipartFormData(request, handler)")).toEqual(["parses multipart itself"]);
    // The file store streams uploads itself, behind app/kernel/upload.server.ts.
    expect(formReads("app/models/file.server.ts", "await unstable_parseMultipartFormData(request, handler)")).toEqual([]);
  });
});
