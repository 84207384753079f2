/**
 * The CSP of a package's files (docs/decisions/020-scorm.md, 044-xapi-cmi5-packages.md): the content may run its
 * own scripts (packages are script, often inline and old), but only from this origin; it may be framed only by
 * its launcher inside the app's player; it reaches its own origin, and `connect` besides (an xAPI or cmi5
 * package: the organization's LRS).
 */
export function contentCsp(appOrigin: string, { connect = [] as string[], objects = "'self'" } = {}) {
  return [
    "default-src 'self' data: blob:",
    "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
    "style-src 'self' 'unsafe-inline' data: blob:",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...connect].join(" "),
    "frame-src 'self' blob: data:",
    `object-src ${objects}`,
    "worker-src 'self' blob:",
    "form-action 'self'",
    "base-uri 'self'",
    `frame-ancestors 'self' ${appOrigin}`,
  ].join("; ");
}
