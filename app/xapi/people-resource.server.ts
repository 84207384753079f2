import { xapiMayReadAgent } from "~/access/xapi";
import { activityObject, personOf } from "~/models/xapi/activities.server";
import { agentKey } from "~/models/xapi/agents";
import { agentOf } from "./params";
import { jsonReply, textReply } from "./reply";
import type { XapiContext } from "./context.server";

/* GET /xapi/activities (an Activity with its kept definition) and /xapi/agents (the Person of an Agent): xAPI 2.0.0 §4.1.6.3–4. */

export async function getActivity({ params, version, db }: XapiContext) {
  if (params.activityId === undefined) return textReply(version, 400, "activityId is required.");
  return jsonReply(version, JSON.stringify(activityObject(db, params.activityId)));
}

export async function getAgent({ params, version, db, credential }: XapiContext) {
  if (params.agent === undefined) return textReply(version, 400, "agent is required.");
  const agent = agentOf(params.agent)!;
  if (!xapiMayReadAgent(credential, agentKey(agent)!)) return textReply(version, 403, "This credential may only read its own agent.");
  return jsonReply(version, JSON.stringify(personOf(db, agent)));
}
