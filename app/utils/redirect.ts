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
