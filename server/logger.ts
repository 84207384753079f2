import type { NextFunction, Request, Response } from "express";
import pino from "pino";

/**
 * Structured logs (docs/decisions/023-openapi-and-logs.md): pino, one JSON object a line on stdout, with
 * ISO times and level names. Secrets never reach a line: request paths are logged without their query
 * (sign-in links and download signatures live there), reset links lose their token, and any field named
 * like a secret is replaced by pino's redaction wherever it appears.
 */
export const REDACTED_FIELDS = [
  "password",
  "token",
  "code",
  "secret",
  "authorization",
  "cookie",
  "*.password",
  "*.token",
  "*.code",
  "*.secret",
  "*.authorization",
  "*.cookie",
  "headers.authorization",
  "headers.cookie",
];

export type Logger = pino.Logger;

export function createLogger(level: string = process.env.LOG_LEVEL || "info", destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_FIELDS, censor: "[redacted]" },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** The server's logger; its level comes from LOG_LEVEL (server/config.ts). */
export const logger = createLogger();

/** Reset links carry a secret in their path; logs must not hold working credentials. */
export function redactPath(path: string) {
  return path.replace(/^(\/auth\/reset\/[^/]+\/)[^/]+/, "$1[redacted]");
}

interface LoggedContext {
  viewer?: { person?: { id: number } | null } | null;
}

/**
 * One line per request when the response is done: request id (also the `X-Request-Id` header),
 * organization and user, method, path without its query, status and duration. /healthz and /readyz are
 * answered before this runs (server/health.ts), so they never log.
 */
export function requestLog(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const tenant = res.locals.tenant as { organization?: { id: number } | null } | undefined;
      const context = res.locals.loadContext as LoggedContext | undefined;
      log.info(
        {
          id: res.locals.requestId,
          org: tenant?.organization?.id ?? null,
          user: context?.viewer?.person?.id ?? null,
          method: req.method,
          path: redactPath(req.path),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        "request",
      );
    });
    next();
  };
}
