import type { z, ZodTypeAny } from "zod";
import type { TenantDb } from "../../db/open";
import type { Viewer } from "../access/viewer";
import type { Capability } from "../utils/capabilities";
import type { Page } from "../utils/pagination";

/** A model's answer to a write: the new state, or a field it refuses (e.g. an unknown category). */
export type WriteResult<V> = { ok: true; value: V } | { ok: false; field: string; message: string };

/**
 * A model served by the generic /api resource calls (app/api/resource.server.ts): its capabilities,
 * its schemas and its functions. Each function gets the organization's database and the request's viewer.
 */
export interface Resource<V, C extends ZodTypeAny, U extends ZodTypeAny> {
  read: Capability;
  write: Capability;
  createSchema: C;
  updateSchema: U;
  /** `filters` are the list call's query parameters (e.g. `course_id` for lessons). */
  list(db: TenantDb, viewer: Viewer, page: Page, filters: Record<string, string>): { items: V[]; total: number } | WriteResult<never>;
  search(db: TenantDb, viewer: Viewer, query: string, page: Page): { items: V[]; total: number };
  get(db: TenantDb, viewer: Viewer, id: number): V | null;
  create?(db: TenantDb, viewer: Viewer, input: z.infer<C>): WriteResult<V>;
  update?(db: TenantDb, viewer: Viewer, id: number, input: z.infer<U>): WriteResult<V> | null;
  remove?(db: TenantDb, viewer: Viewer, id: number): boolean;
}
