import { redirect as remixRedirect } from "@remix-run/node";

/**
 * The one redirect sanitiser (docs/security.md "Authentication": `redirectTo`): a path on this site to go back
 * to after a form post or a sign-in; anything else becomes the fallback.
 *
 * A value is checked twice: as given, and as a browser will read it once dot segments (`.`, `..`, `%2e`) are
 * resolved, since `/.//evil.com` resolves to `//evil.com`, a protocol-relative address of another site.
 * Browsers strip tabs and newlines from addresses and read `\` as `/`, so any control character or backslash
 * is refused too, in the value and in its resolved form.
 */
const BASE = "http://lectern.invalid";

function looksLocal(path: string) {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused here
  return path.startsWith("/") && !path.startsWith("//") && !/[\u0000-\u001f\u007f\\]/.test(path);
}

export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2048 || !looksLocal(value)) return fallback;
  let resolved: string;
  try {
    const url = new URL(value, BASE);
    if (url.origin !== BASE) return fallback;
    resolved = url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
  // A resolved path may itself begin with `//` (or, decoded by some client, `/\`): never hand that on.
  if (!looksLocal(resolved) || /^\/(?:%2f|%5c)/i.test(resolved)) return fallback;
  return resolved;
}

/**
 * Every redirect the app answers with goes through here (tests/unit/redirect-sources.test.ts fails if any other
 * module builds one): the target is a path on this site, passed through `safeRedirectPath`, so a value that came
 * from the request (a `returnTo`, a `redirectTo`, the request's own path) can never send anyone elsewhere.
 * A target that does not hold becomes `fallback`.
 */
export function redirect(target: string, init: number | ResponseInit = 302, fallback = "/") {
  return remixRedirect(safeRedirectPath(target, fallback), init);
}

/**
 * A redirect to another site, for an address the server made itself (an SSO provider's sign-in address from the
 * organization's own configuration), never from request input. Its callers are listed in
 * tests/unit/redirect-sources.test.ts.
 */
export function redirectOffSite(address: URL, init: number | ResponseInit = 302) {
  return remixRedirect(address.href, init);
}
