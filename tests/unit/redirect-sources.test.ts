import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../helpers/sources";
import { redirect, redirectOffSite, safeRedirectPath } from "~/utils/redirect";

/**
 * Issue 44, item 2: every redirect goes through app/utils/redirect.ts (docs/security.md "Authentication", the
 * `redirectTo` row). The quiz step had a sanitiser of its own that checked `returnTo` before resolving its dot
 * segments, so `/.//evil.com` became `Location: //evil.com`. This test reads the source of app/ and server/ and
 * fails if any other module can build a `Location`: by Remix's own `redirect`, a `Location` header, or
 * Express's `res.redirect`, apart from the sites listed here with why their target is not request input.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const THE_SANITISER = "app/utils/redirect.ts";

/** Express redirects in server/, each with why its address cannot come from the request. */
const EXPRESS_REDIRECTS: Record<string, string> = {
  // The sign-in link's exchange: a fixed path; the page to return to goes through safeRedirectPath first.
  "server/protection.ts": "res.redirect(303, `/auth/magic?",
  // The organization's own favicon address, set by its admin in the settings (never by a request).
  "server/favicon.ts": "res.redirect(302, icon.href)",
};
/** Callers of redirectOffSite: an SSO provider's sign-in address, made from the organization's configuration. */
const OFF_SITE_CALLERS = ["app/kernel/sso.server.ts"];

/** What in one module's text could build a redirect other than through the sanitiser. */
export function redirectFindings(file: string, text: string): string[] {
  const found: string[] = [];
  const remixImport = /import\s*\{([^}]*)\}\s*from\s*["']@remix-run\/(?:node|server-runtime|express|react)["']/g;
  for (const match of text.matchAll(remixImport)) {
    const names = match[1].split(",").map((n) => n.trim().split(/\s+as\s+/)[0]);
    for (const name of ["redirect", "redirectDocument", "replace"]) if (names.includes(name)) found.push(`imports ${name} from Remix`);
  }
  if (/["'`]location["'`]\s*[:,\]]/i.test(text) || /[{,]\s*Location\s*:/.test(text)) found.push("sets a Location header");
  const expressRedirects = text.match(/\bres\.redirect\([^\n]*/g) ?? [];
  for (const call of expressRedirects) {
    const allowed = EXPRESS_REDIRECTS[file];
    if (!allowed || !call.startsWith(allowed)) found.push(`calls ${call.trim()}`);
  }
  if (/\bredirectOffSite\(/.test(text) && !OFF_SITE_CALLERS.includes(file)) found.push("redirects off the site");
  return found;
}

describe("every redirect goes through app/utils/redirect.ts", () => {
  it("no module of app/ or server/ builds a Location but the sanitiser (and the listed, reasoned exceptions)", () => {
    const files = [...sourceFiles("app"), ...sourceFiles("server")].filter((file) => file !== THE_SANITISER);
    expect(files.length).toBeGreaterThan(100);
    const findings = files.flatMap((file) =>
      redirectFindings(file, fs.readFileSync(path.join(ROOT, file), "utf8")).map((what) => `${file}: ${what}`),
    );
    expect(findings).toEqual([]);
  });

  it("finds each way around it (the check can fail)", () => {
    // The quiz step as it was before issue 44: Remix's redirect, fed by its own sanitiser.
    expect(redirectFindings("app/models/quiz-steps.server.ts", 'import { redirect } from "@remix-run/node";')).toEqual([
      "imports redirect from Remix",
    ]);
    expect(redirectFindings("app/x.ts", 'import { json, redirectDocument as go } from "@remix-run/node";')).toEqual([
      "imports redirectDocument from Remix",
    ]);
    expect(redirectFindings("app/x.ts", "new Response(null, { status: 302, headers: { Location: to } })")).toEqual([
      "sets a Location header",
    ]);
    expect(redirectFindings("app/x.ts", 'new Response(null, { status: 302, headers: { "Location": to } })')).toEqual([
      "sets a Location header",
    ]);
    expect(redirectFindings("app/x.ts", 'headers.set("location", to)')).toEqual(["sets a Location header"]);
    expect(redirectFindings("server/x.ts", "res.redirect(302, req.query.to)")).toEqual(["calls res.redirect(302, req.query.to)"]);
    expect(redirectFindings("server/favicon.ts", "res.redirect(302, req.query.to)")).toHaveLength(1);
    expect(redirectFindings("app/x.ts", "redirectOffSite(new URL(to))")).toEqual(["redirects off the site"]);
  });

  it("answers every dot-segment form of another site with a path on this one", () => {
    const bypasses = ["/.//evil.example", "/%2e//evil.example", "/a/..//evil.example", "//evil.example", "/\\evil.example"];
    for (const value of bypasses) {
      expect(safeRedirectPath(value, "/quizzes/1")).toBe("/quizzes/1");
      const res = redirect(value);
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/");
    }
    expect(redirect("/courses/3?lesson=4#top").headers.get("Location")).toBe("/courses/3?lesson=4#top");
    expect(redirect("/a/../b", 303).headers.get("Location")).toBe("/b");
    expect(redirectOffSite(new URL("https://idp.example/authorize?x=1")).headers.get("Location")).toBe("https://idp.example/authorize?x=1");
  });
});
