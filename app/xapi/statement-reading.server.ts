import fs from "node:fs";
import { attachmentFile } from "~/models/xapi/attachment-files.server";
import { moreToken, readMoreToken } from "~/models/xapi/more-token";
import { acceptedLanguages, activityIdsOf, formatStatement, type StatementFormat } from "~/models/xapi/statement-format";
import { keptDefinitions } from "~/models/xapi/activities.server";
import type { TenantDb } from "../../db/open";
import { consistentThrough, queryStatements, type PageCursor, type StatementFilters } from "~/models/xapi/statement-query.server";
import { statementById } from "~/models/xapi/statements.server";
import { agentOf, formatOf, msOf, readParams, type Params } from "./params";
import { baseHeaders, jsonReply, textReply } from "./reply";
import type { XapiContext } from "./context.server";

/*
 * GET and HEAD /xapi/statements (xAPI 2.0.0 §4.1.6.1): one statement by `statementId` or `voidedStatementId`,
 * or a StatementResult of those the filters select, a page at a time with its `more` link; in the format
 * asked for, and with the attachments' bytes as multipart/mixed when `attachments=true`.
 */

const SINGLE_TAKES = new Set(["statementId", "voidedStatementId", "format", "attachments"]);

function filtersOf(params: Params): StatementFilters {
  return {
    agent: params.agent === undefined ? undefined : agentOf(params.agent),
    verb: params.verb,
    activity: params.activity,
    registration: params.registration,
    relatedActivities: params.related_activities === "true",
    relatedAgents: params.related_agents === "true",
    since: msOf(params.since),
    until: msOf(params.until),
    limit: params.limit === undefined ? undefined : Number(params.limit),
    ascending: params.ascending === "true",
  };
}

export async function getStatements(xapi: XapiContext): Promise<Response> {
  const { params, version } = xapi;
  if (params.statementId !== undefined || params.voidedStatementId !== undefined) return single(xapi);
  let query = params;
  let cursor: PageCursor | null = null;
  if (params.more !== undefined) {
    if (Object.keys(params).length > 1) return textReply(version, 400, "more is sent alone.");
    const token = readMoreToken(xapi.signer, xapi.organization.id, xapi.credential.id, params.more);
    if (!token) return textReply(version, 400, "more is not a paging token of this LRS for this credential.");
    const again = readParams("statements", "GET", new URLSearchParams(token.query));
    if (!again.ok) return textReply(version, 400, again.message);
    query = again.params;
    cursor = token.cursor;
  }
  const through = consistentThrough(xapi.db);
  const page = queryStatements(xapi.db, xapi.credential, filtersOf(query), cursor);
  if ("error" in page) return textReply(version, 400, page.error);
  const languages = acceptedLanguages(xapi.call.headers.get("accept-language"));
  const format = formatOf(query.format);
  const definitions = definitionsFor(xapi.db, format, page.statements);
  const statements = page.statements.map((json) => formatStatement(json, format, languages, definitions));
  const more = page.next
    ? `${new URL(xapi.baseUrl).pathname}/statements?more=${moreToken(xapi.signer, xapi.organization.id, xapi.credential.id, { query, cursor: page.next })}`
    : "";
  const body = `{"statements":[${statements.join(",")}],"more":${JSON.stringify(more)}}`;
  const headers = { "X-Experience-API-Consistent-Through": through, "Last-Modified": new Date(through).toUTCString() };
  if (query.attachments === "true") return withAttachments(xapi, body, page.statements, headers);
  return jsonReply(version, body, 200, headers);
}

async function single(xapi: XapiContext) {
  const { params, version } = xapi;
  if (params.statementId !== undefined && params.voidedStatementId !== undefined)
    return textReply(version, 400, "Send statementId or voidedStatementId, not both.");
  const other = Object.keys(params).find((name) => !SINGLE_TAKES.has(name));
  if (other) return textReply(version, 400, `${other} cannot be sent with statementId or voidedStatementId.`);
  const voided = params.voidedStatementId !== undefined;
  const json = statementById(xapi.db, xapi.credential, (params.voidedStatementId ?? params.statementId)!, { voided });
  if (json === null) return textReply(version, 404, "No such statement.");
  const through = consistentThrough(xapi.db);
  const stored = Date.parse((JSON.parse(json) as { stored: string }).stored);
  const headers = { "X-Experience-API-Consistent-Through": through, "Last-Modified": new Date(stored).toUTCString() };
  const format = formatOf(params.format);
  const body = formatStatement(
    json,
    format,
    acceptedLanguages(xapi.call.headers.get("accept-language")),
    definitionsFor(xapi.db, format, [json]),
  );
  if (params.attachments === "true") return withAttachments(xapi, body, [json], headers);
  return jsonReply(version, body, 200, headers);
}

/**
 * The reply as multipart/mixed: the JSON, then each attachment's bytes the LRS holds, once per hash, streamed
 * from its file as the client reads (a page may name many large attachments: none is held in memory whole).
 */
function withAttachments(xapi: XapiContext, json: string, statements: string[], headers: Record<string, string>) {
  const boundary = `xapi-${crypto.randomUUID()}`;
  const hashes = new Set<string>();
  for (const statement of statements)
    for (const attachment of (JSON.parse(statement) as { attachments?: Array<{ sha2?: string }> }).attachments ?? [])
      if (typeof attachment.sha2 === "string") hashes.add(attachment.sha2.toLowerCase());
  const files = [...hashes].flatMap((sha2) => {
    const file = attachmentFile(xapi.db, xapi.files, sha2);
    return file ? [{ sha2, ...file }] : [];
  });
  const encoder = new TextEncoder();
  async function* parts() {
    yield encoder.encode(`--${boundary}\r\nContent-Type: application/json\r\n\r\n${json}\r\n`);
    for (const file of files) {
      yield encoder.encode(
        `--${boundary}\r\nContent-Type: ${file.contentType}\r\nContent-Transfer-Encoding: binary\r\nX-Experience-API-Hash: ${file.sha2}\r\n\r\n`,
      );
      for await (const chunk of fs.createReadStream(file.file)) yield new Uint8Array(chunk as Buffer);
      yield encoder.encode("\r\n");
    }
    yield encoder.encode(`--${boundary}--\r\n`);
  }
  const iterator = parts();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  const reply = baseHeaders(xapi.version, headers);
  reply.set("Content-Type", `multipart/mixed; boundary=${boundary}`);
  return new Response(body, { status: 200, headers: reply });
}

/** For `canonical`, the kept definitions of the Activities the statements name (none is read for the other formats). */
function definitionsFor(db: TenantDb, format: StatementFormat, statements: string[]) {
  if (format !== "canonical") return undefined;
  return keptDefinitions(
    db,
    statements.flatMap((json) => activityIdsOf(JSON.parse(json) as Record<string, unknown>)),
  );
}
