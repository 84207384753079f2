/**
 * The better-sqlite3 connection under a drizzle database or transaction. A handle carries it as `$client`
 * (drizzle's own); a transaction does not, so db/open.ts records each transaction it begins here, so that
 * what is kept per connection (db/prepared.ts, db/content-cache.ts) is found from any of them without
 * reading drizzle's internals.
 */
// One registry per process: the server (build/server.js) opens the handles and begins the transactions,
// the app (build/index.js) asks for their connections, and each bundle has its own copy of this module.
const REGISTRY = Symbol.for("lectern.db.connections");
const connections: WeakMap<object, object> = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new WeakMap<
  object,
  object
>()) as WeakMap<object, object>;

export function rememberConnection(transaction: object, connection: object) {
  connections.set(transaction, connection);
}

/** The connection under `db` (a handle, or a transaction db/open.ts began), or `db` itself for anything else. */
export function connectionOf(db: object): object {
  return connections.get(db) ?? ("$client" in db && typeof db.$client === "object" && db.$client !== null ? db.$client : db);
}
