/**
 * The database handles every model takes first, for the routes and screens that pass one along: they
 * may not import db/ themselves (tests/unit/layers.test.ts). `TenantDb` is a request's whole handle
 * (`context.db`), `TenantConn` any handle or transaction of a tenant database.
 */
export type { TenantConn, TenantDb } from "../../db/open";

/** What a database error means, for the code that answers it (the /api dispatcher): corrupt, or locked by another process. */
export { isCorruptionError } from "../../db/open";
export { isBusyError } from "../../db/write-lock";
