import { sql } from "drizzle-orm";
import { xapiStatementActivities, xapiStatementAgents, xapiStatements } from "../../../db/tenant";
import type { TenantConn } from "../../../db/open";
import { preparedOnce } from "../../../db/prepared";

/*
 * The rows a stored statement is written as (docs/decisions/043-learning-record-store.md, "Statements"): its own,
 * and one per agent and activity it names for the `related_*` filters. Prepared once per connection
 * (db/prepared.ts): building the queries afresh cost more than running them (`npm run bench`, scripts/bench/xapi.ts).
 */

const p = sql.placeholder;

export interface StatementRow {
  id: string;
  stored: number;
  timestamp: number;
  version: string;
  actorKey: string;
  verbId: string;
  objectType: string;
  objectKey: string;
  registration: string | null;
  credentialId: number;
  json: string;
}

/** Inserts a statement's row; its `seq`. */
export function insertStatementRow(tx: TenantConn, row: StatementRow): number {
  return preparedOnce(tx, "xapi.insertStatement", () =>
    tx
      .insert(xapiStatements)
      .values({
        id: p("id"),
        stored: p("stored"),
        timestamp: p("timestamp"),
        version: p("version"),
        actorKey: p("actorKey"),
        verbId: p("verbId"),
        objectType: p("objectType"),
        objectKey: p("objectKey"),
        registration: p("registration"),
        credentialId: p("credentialId"),
        json: p("json"),
      })
      .returning({ seq: xapiStatements.seq })
      .prepare(),
  ).get({ ...row })!.seq;
}

/** Inserts the rows the `related_agents` and `related_activities` filters read for the statement `seq`. */
export function insertIndexRows(tx: TenantConn, seq: number, agents: [string, string][], activities: [string, string][]) {
  const agent = preparedOnce(tx, "xapi.insertAgentRow", () =>
    tx
      .insert(xapiStatementAgents)
      .values({ seq: p("seq"), agentKey: p("key"), role: p("role") })
      .prepare(),
  );
  for (const [key, role] of agents) agent.run({ seq, key, role });
  const activity = preparedOnce(tx, "xapi.insertActivityRow", () =>
    tx
      .insert(xapiStatementActivities)
      .values({ seq: p("seq"), activityId: p("key"), role: p("role") })
      .prepare(),
  );
  for (const [key, role] of activities) activity.run({ seq, key, role });
}
