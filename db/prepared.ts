import { connectionOf } from "./connections";

/**
 * Queries built once per database connection (docs/decisions/014-speed.md). Building a drizzle query
 * (walking its columns, writing its SQL) cost more than running it on the hot paths (session lookup,
 * heartbeats, learner pages); a query prepared with placeholders is built once per connection and then
 * only run. A transaction shares its connection, so it finds the same prepared queries.
 */
const perConnection = new WeakMap<object, Map<string, unknown>>();

export function preparedOnce<T>(db: object, key: string, build: () => T): T {
  const connection = connectionOf(db);
  let queries = perConnection.get(connection);
  if (!queries) {
    queries = new Map();
    perConnection.set(connection, queries);
  }
  let query = queries.get(key) as T | undefined;
  if (query === undefined) {
    query = build();
    queries.set(key, query);
  }
  return query;
}

/** Timestamps are stored as whole seconds (db/columns.ts); placeholders take them in that form. */
export function toSeconds(date: Date) {
  return Math.floor(date.getTime() / 1000);
}
