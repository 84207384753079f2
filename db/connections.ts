/**
 * The better-sqlite3 connection under a drizzle database or transaction, as db/open.ts made them: it
 * records each handle it builds and each transaction it begins, so that what is kept per connection
 * (db/prepared.ts, db/content-cache.ts) is found from any of them without reading drizzle's internals.
 */
// One registry per process: the server (build/server.js) opens the handles and begins the transactions,
// the app (build/index.js) asks for their connections, and each bundle has its own copy of this module.
const REGISTRY = Symbol.for("lectern.db.connections");
const connections: WeakMap<object, object> = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new WeakMap<
  object,
  object
>()) as WeakMap<object, object>;

export function rememberConnection(handle: object, connection: object) {
  connections.set(handle, connection);
}

/** The connection under `db` (a handle or transaction db/open.ts made), or `db` itself for anything else. */
export function connectionOf(db: object): object {
  return connections.get(db) ?? (db as { $client?: object }).$client ?? db;
}
