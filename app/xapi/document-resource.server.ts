import type { XapiDocumentKind } from "../../db/tenant";
import { xapiDocumentReach, xapiDocumentRefusal } from "~/access/xapi";
import { agentKey } from "~/models/xapi/agents";
import { LEARNER_PREFERENCES, learnerPreferencesProblem, markPreferencesRead } from "~/models/packages/launches.server";
import {
  deleteDocument,
  deleteDocuments,
  documentIds,
  getDocument,
  writeDocument,
  type DocumentPlace,
} from "~/models/xapi/documents.server";
import { agentOf, msOf } from "./params";
import { DOCUMENT_BYTES } from "./limits";
import { emptyReply, jsonReply, textReply } from "./reply";
import type { Handler, XapiContext } from "./context.server";
import type { XapiVersion } from "~/models/xapi/statements.server";

/*
 * The document resources (xAPI 2.0.0 §4.1.6.2, .5, .6): state (`/activities/state`, an activity, an agent and
 * a registration), activity profiles and agent profiles. One document by its id, or the ids of those at a
 * place (changed since a moment); PUT replaces, POST merges JSON, DELETE removes; ETags and preconditions as
 * app/models/xapi/documents.server.ts decides them.
 */

const ID_PARAM: Record<XapiDocumentKind, "stateId" | "profileId"> = {
  state: "stateId",
  "activity-profile": "profileId",
  "agent-profile": "profileId",
};

/** Where the call's documents are, or the name of a required parameter it lacks. */
function placeOf(kind: XapiDocumentKind, xapi: XapiContext): DocumentPlace | string {
  const { params } = xapi;
  if (kind !== "agent-profile" && params.activityId === undefined) return "activityId";
  if (kind !== "activity-profile" && params.agent === undefined) return "agent";
  return {
    kind,
    activityId: kind === "agent-profile" ? undefined : params.activityId,
    agentKey: kind === "activity-profile" ? undefined : (agentKey(agentOf(params.agent!)) ?? undefined),
    registration: kind === "state" ? (params.registration ?? null) : null,
    ...xapiDocumentReach(xapi.credential),
  };
}

export function documentResource(kind: XapiDocumentKind): Handler {
  return async (xapi) => {
    const { call, params, version } = xapi;
    const place = placeOf(kind, xapi);
    if (typeof place === "string") return textReply(version, 400, `${place} is required.`);
    const write = call.method !== "GET" && call.method !== "HEAD";
    const refusal = xapiDocumentRefusal(xapi.credential, {
      kind,
      agentKey: place.agentKey ?? null,
      write,
      documentId: params[ID_PARAM[kind]],
    });
    if (refusal) return textReply(version, 403, refusal);
    const documentId = params[ID_PARAM[kind]];
    if (call.method === "PUT" || call.method === "POST") {
      if (documentId === undefined) return textReply(version, 400, `${ID_PARAM[kind]} is required.`);
      return put(xapi, { ...place, documentId }, call.method);
    }
    if (call.method === "DELETE") {
      if (documentId !== undefined) {
        const outcome = deleteDocument(xapi.db, { ...place, documentId }, preconditions(xapi));
        return outcome.ok ? emptyReply(version, 204) : textReply(version, outcome.status, outcome.message);
      }
      if (kind !== "state") return textReply(version, 400, "profileId is required.");
      deleteDocuments(xapi.db, place);
      return emptyReply(version, 204);
    }
    if (documentId === undefined) {
      const ids = documentIds(xapi.db, place, msOf(params.since));
      return jsonReply(version, JSON.stringify(ids));
    }
    if (params.since !== undefined) return textReply(version, 400, `since is sent without ${ID_PARAM[kind]}.`);
    // A cmi5 AU reads the learner's preferences as it starts, before it may initialize (cmi5 §11).
    if (kind === "agent-profile" && documentId === LEARNER_PREFERENCES && xapi.credential.purpose === "launch")
      markPreferencesRead(xapi.db, xapi.credential.id);
    const document = getDocument(xapi.db, { ...place, documentId });
    if (!document) return textReply(version, 404, "No such document.");
    return new Response(new Uint8Array(document.body), {
      status: 200,
      headers: {
        ...Object.fromEntries(emptyReply(version).headers),
        "Content-Type": document.contentType,
        // Bytes a client stored, whatever type it named: never shown as a page (the reply is also sandboxed).
        "Content-Disposition": "attachment",
        ETag: document.etag,
        "Last-Modified": new Date(document.updated).toUTCString(),
      },
    });
  };
}

const preconditions = ({ call }: XapiContext) => ({
  ifMatch: call.headers.get("if-match"),
  ifNoneMatch: call.headers.get("if-none-match"),
});

async function put(xapi: XapiContext, key: DocumentPlace & { documentId: string }, method: "PUT" | "POST") {
  const { call, version } = xapi;
  const contentType = call.headers.get("content-type") ?? "application/octet-stream";
  const body = await call.body(DOCUMENT_BYTES);
  if (!body) return textReply(version, 413, `A document may be at most ${DOCUMENT_BYTES} bytes.`);
  if (/^application\/json\b/i.test(contentType) && method === "POST" && !isJsonObject(body))
    return textReply(version, 400, "A POST of JSON sends a JSON object.");
  // A launch's AU may write the learner's preferences only as cmi5 shapes them (§11); anything else is forbidden.
  if (key.kind === "agent-profile" && key.documentId === LEARNER_PREFERENCES && xapi.credential.purpose === "launch") {
    const problem = learnerPreferencesProblem(contentType, body);
    if (problem) return textReply(version, 403, problem);
  }
  const outcome = writeDocument(
    xapi.db,
    key,
    { contentType, body },
    {
      method,
      preconditions: preconditions(xapi),
      requirePrecondition: preconditionRule(key.kind, version),
      credentialId: xapi.credential.id,
    },
  );
  return outcome.ok
    ? emptyReply(version, 204, outcome.etag ? { ETag: outcome.etag } : {})
    : textReply(version, outcome.status, outcome.message);
}

function isJsonObject(body: Buffer) {
  try {
    const value = JSON.parse(body.toString("utf8")) as unknown;
    return !!value && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * What a PUT without If-Match or If-None-Match meets: in 2.0.0 a 409 onto any existing document (ADL's suite
 * checks it for the state too); in 1.0.3 the state needs none, and a profile needs one always (409 onto an
 * existing profile, 400 onto none: §6.3 as ADL's suite reads it).
 */
function preconditionRule(kind: XapiDocumentKind, version: XapiVersion) {
  if (version === "2.0.0") return "existing" as const;
  return kind === "state" ? ("never" as const) : ("always" as const);
}
