import { connectionOf } from "./connections";

/**
 * Results kept per database connection while what they were computed from is unchanged
 * (docs/decisions/014-speed.md): for reads that cost far more than checking a version, such as a
 * full-text search. The caller gives the version: a value that is certain to differ after any change the
 * result depends on. Nothing is served from inside a transaction (it may hold writes not yet in the version).
 */
const perConnection = new WeakMap<object, Map<string, { version: string; value: unknown }>>();
const MAX_ENTRIES = 256;

export function cachedByVersion<T>(db: object, key: string, version: () => string, compute: () => T): T {
  const connection = connectionOf(db);
  if ((connection as { inTransaction?: boolean }).inTransaction) return compute();
  const current = version();
  let entries = perConnection.get(connection);
  if (!entries) perConnection.set(connection, (entries = new Map()));
  const kept = entries.get(key);
  entries.delete(key); // most recently used last
  if (kept && kept.version === current) {
    entries.set(key, kept);
    return kept.value as T;
  }
  const value = compute();
  entries.set(key, { version: current, value });
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  return value;
}
