import type { AppLoadContext } from "@remix-run/node";
import { isBusyError } from "~/models/database.server";
import { authenticateXapi } from "~/models/xapi/credentials.server";
import { fetchAuthToken } from "~/models/packages/launches.server";
import { frame, type XapiCall } from "./request.server";
import type { TenantDb } from "../../db/open";
import { consistentThrough } from "~/models/xapi/statement-query.server";
import { methodsOf, readParams } from "./params";
import { preflight, textReply, unauthorized, jsonReply } from "./reply";
import type { Handler, XapiContext } from "./context.server";
import { getStatements, postStatements, putStatement } from "./statement-resource.server";
import { documentResource } from "./document-resource.server";
import { getActivity, getAgent } from "./people-resource.server";

/**
 * The one way /xapi is answered (docs/decisions/043-learning-record-store.md): server/xapi.ts hands every
 * /xapi request here, through the build's entry module. In order: a CORS preflight is answered; the request
 * is framed (its resource, and 1.0.3's alternate syntax unpacked); `/about` answers anyone; the credential
 * is checked before any body is read; the version header is required; then the method and the
 * parameters, and the resource's handler. A tenant file locked by another process is marked for the
 * server's 503.
 */
const ABOUT = JSON.stringify({ version: ["2.0.0", "1.0.3"], extensions: {} });

const HANDLERS: Record<string, Partial<Record<string, Handler>>> = {
  statements: { GET: getStatements, HEAD: getStatements, PUT: putStatement, POST: postStatements },
  "activities/state": Object.fromEntries(["GET", "HEAD", "PUT", "POST", "DELETE"].map((m) => [m, documentResource("state")])),
  "activities/profile": Object.fromEntries(["GET", "HEAD", "PUT", "POST", "DELETE"].map((m) => [m, documentResource("activity-profile")])),
  "agents/profile": Object.fromEntries(["GET", "HEAD", "PUT", "POST", "DELETE"].map((m) => [m, documentResource("agent-profile")])),
  activities: { GET: getActivity, HEAD: getActivity },
  agents: { GET: getAgent, HEAD: getAgent },
};

export async function dispatchXapi(request: Request, context: AppLoadContext): Promise<Response> {
  if (request.method === "OPTIONS") return preflight();
  const { organization, db, platform } = context;
  if (!organization || !db) return textReply(null, 404, "This host has no Learning Record Store.");
  try {
    // A cmi5 launch's one-use fetch address (cmi5 §8.2): a POST, answered 200 with the token or cmi5's error.
    const fetched = /^\/xapi\/fetch\/([A-Za-z0-9_-]{20,100})$/.exec(new URL(request.url).pathname);
    if (fetched) {
      if (request.method !== "POST") return textReply(null, 405, "The fetch address is read with POST.", { Allow: "POST" });
      const answer = fetchAuthToken(db, fetched[1], { origin: new URL(request.url).origin });
      return jsonReply(
        null,
        JSON.stringify(answer.ok ? { "auth-token": answer.authToken } : { "error-code": answer.code, "error-text": answer.text }),
      );
    }
    const framed = await frame(request);
    if (!framed.ok) return textReply(null, framed.status, framed.message);
    const { call } = framed;
    if (call.resource === "about") {
      if (call.method !== "GET" && call.method !== "HEAD")
        return textReply(call.version, 405, "about is read with GET.", { Allow: "GET, HEAD" });
      return jsonReply(call.version, ABOUT);
    }
    const credential = authenticateXapi(db, call.headers.get("authorization"));
    if (!credential) return unauthorized(call.version);
    // A request that names no version is answered in the one its credential's client was set up for.
    if (!call.version)
      return textReply(
        credential.version,
        400,
        call.versionHeader === null
          ? "The X-Experience-API-Version header is required."
          : "This LRS speaks xAPI 2.0.0 and 1.0.3: send X-Experience-API-Version 2.0.0 or 1.0.3.",
      );
    if (call.alternate && call.version !== "1.0.3")
      return textReply(call.version, 400, "xAPI 2.0 has no alternate request syntax: send the method, headers and body as they are.");
    const handler = HANDLERS[call.resource]?.[call.method];
    if (!handler)
      return textReply(call.version, 405, `${call.resource} does not take ${call.method}.`, { Allow: methodsOf(call.resource).join(", ") });
    const params = readParams(call.resource, call.method, call.params);
    if (!params.ok) return withConsistentThrough(call, db, textReply(call.version, 400, params.message));
    const xapi: XapiContext = {
      call,
      version: call.version,
      params: params.params,
      credential,
      db,
      organization,
      signer: platform,
      files: { dataDir: platform.dataDir, organizationId: organization.id },
      baseUrl: `${new URL(request.url).origin}/xapi`,
    };
    return withConsistentThrough(call, db, await handler(xapi));
  } catch (error) {
    if (!isBusyError(error)) throw error;
    context.tenantBusy = true;
    return textReply(null, 503, "The organization's records are busy; try again in a moment.", { "Retry-After": "1" });
  }
}

/** A GET of statements names how far reads are consistent, whatever its status (xAPI 2.0.0 §4.1.6.1). */
function withConsistentThrough(call: XapiCall, db: TenantDb, response: Response) {
  if (
    call.resource === "statements" &&
    (call.method === "GET" || call.method === "HEAD") &&
    !response.headers.has("X-Experience-API-Consistent-Through")
  )
    response.headers.set("X-Experience-API-Consistent-Through", consistentThrough(db));
  return response;
}
