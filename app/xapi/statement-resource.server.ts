import { checkAttachments } from "~/models/xapi/attachments";
import { mixedBoundary, parseMultipart, type AttachmentPart } from "~/models/xapi/multipart";
import { storeStatements } from "~/models/xapi/statements.server";
import { launchTracking } from "~/models/packages/tracking.server";
import { boundsProblem, parseJson } from "./json";
import { ATTACHMENT_BYTES, BATCH_BYTES, BATCH_STATEMENTS, STATEMENT_BYTES } from "./limits";
import { emptyReply, jsonReply, textReply } from "./reply";
import type { XapiContext } from "./context.server";
import { authorityOf } from "./authority";

export { getStatements } from "./statement-reading.server";

/*
 * PUT and POST /xapi/statements (xAPI 2.0.0 §4.1.6.1): one statement with its id, or a batch; JSON, or
 * multipart/mixed with the attachments' bytes. The body is read within its limit, then the models check and
 * store it whole (app/models/xapi/statements.server.ts).
 */

type Sent = { ok: true; statements: unknown; parts: AttachmentPart[]; bytes: number } | { ok: false; response: Response };

/** The statements (and parts) a PUT or POST sent, or the refusal of its body. */
async function readStatements(xapi: XapiContext, single: boolean): Promise<Sent> {
  const { call, version } = xapi;
  const type = call.headers.get("content-type");
  const boundary = mixedBoundary(type);
  const json = /^\s*application\/json\s*(;|$)/i.test(type ?? "");
  if (!json && !boundary)
    return {
      ok: false,
      response: textReply(version, 400, "Statements are sent as application/json, or multipart/mixed with attachments."),
    };
  const limit = (single ? STATEMENT_BYTES : BATCH_BYTES) + (boundary ? ATTACHMENT_BYTES : 0);
  const body = await call.body(limit);
  if (!body) return { ok: false, response: textReply(version, 413, `The statements may be at most ${limit} bytes.`) };
  if (boundary) {
    const parsed = parseMultipart(body, boundary);
    if (!parsed.ok) return { ok: false, response: textReply(version, 400, parsed.message) };
    const problem = boundsProblem(parsed.statements);
    if (problem) return { ok: false, response: textReply(version, 400, problem) };
    return { ok: true, statements: parsed.statements, parts: parsed.parts, bytes: body.length };
  }
  const parsed = parseJson(body.toString("utf8"));
  if (!parsed.ok) return { ok: false, response: textReply(version, 400, parsed.message) };
  return { ok: true, statements: parsed.value, parts: [], bytes: body.length };
}

/** Why a batch is too large (more statements than allowed, or one of them past a statement's limit), or null. */
function sizeProblem(statements: unknown[], bodyBytes: number) {
  if (statements.length > BATCH_STATEMENTS) return `A batch may hold at most ${BATCH_STATEMENTS} statements.`;
  if (bodyBytes > STATEMENT_BYTES && statements.some((s) => Buffer.byteLength(JSON.stringify(s)) > STATEMENT_BYTES))
    return `A statement may be at most ${STATEMENT_BYTES} bytes.`;
  return null;
}

async function store(xapi: XapiContext, single: boolean) {
  const sent = await readStatements(xapi, single);
  if (!sent.ok) return sent;
  const { statements, parts, bytes } = sent;
  if (single && (Array.isArray(statements) || !statements || typeof statements !== "object"))
    return { ok: false as const, response: textReply(xapi.version, 400, "A PUT sends one statement, as a JSON object.") };
  const list = Array.isArray(statements) ? statements : [statements];
  const tooLarge = sizeProblem(list, bytes);
  if (tooLarge) return { ok: false as const, response: textReply(xapi.version, 413, tooLarge) };
  const mismatch = checkAttachments(list, parts);
  if (mismatch) return { ok: false as const, response: textReply(xapi.version, 400, mismatch) };
  const outcome = storeStatements(xapi.db, xapi.credential, statements, {
    version: xapi.version,
    authority: authorityOf(xapi),
    putId: single ? xapi.params.statementId : undefined,
    attachments: parts.length ? { parts, files: xapi.files } : undefined,
    // Completed, passed and failed about a lesson of the organization feed its progress (lesson-results.server.ts).
    learning: { origin: new URL(xapi.baseUrl).origin, organization: xapi.organization },
    // A package launch's statements answer to cmi5's rules and move its AU, course and lesson (tracking.server.ts).
    launches: launchTracking(new URL(xapi.baseUrl).origin),
  });
  if (!outcome.ok) return { ok: false as const, response: textReply(xapi.version, outcome.status, outcome.message) };
  return { ok: true as const, ids: outcome.ids };
}

export async function putStatement(xapi: XapiContext) {
  if (xapi.params.statementId === undefined) return textReply(xapi.version, 400, "A PUT names its statement with statementId.");
  const stored = await store(xapi, true);
  return stored.ok ? emptyReply(xapi.version, 204) : stored.response;
}

export async function postStatements(xapi: XapiContext) {
  const stored = await store(xapi, false);
  return stored.ok ? jsonReply(xapi.version, JSON.stringify(stored.ids)) : stored.response;
}
