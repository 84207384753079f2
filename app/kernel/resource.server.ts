import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { Viewer } from "../access/viewer";
import { z, type ZodTypeAny } from "zod";
import type { TenantDb } from "../../db/open";
import { apiError, apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk, apiT, parseApiBody } from "../utils/api.server";
import { requireApiAuth } from "./auth.server";
import type { Capability } from "../utils/capabilities";
import { pageSchema, paginated } from "../utils/pagination";
import type { Resource, WriteResult } from "../models/resource";

/**
 * The generic /api resource calls (spec §7: GET {resource}, GET {resource}/{id}, GET {resource}/search,
 * POST {resource}, PUT {resource}/{id}, DELETE {resource}/{id}). A resource names its capabilities,
 * its schemas and its model functions; this module does the rest the same way for every resource:
 * the capability check, the organization's database, validation (422), pagination and the envelope. The
 * model functions get the database and the request's viewer; the rules they apply are app/access's.
 */

const idSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const searchSchema = pageSchema.extend({ q: z.string().trim().min(1).max(200) });

async function scopeFor(request: Request, context: AppLoadContext, capability: Capability): Promise<[TenantDb, Viewer]> {
  if (!context.organization || !context.db) throw await apiNotFound(request, context);
  const viewer = await requireApiAuth(request, context, { capability });
  return [context.db, viewer];
}

function query(request: Request) {
  return Object.fromEntries(new URL(request.url).searchParams);
}

async function writeReply<V>(request: Request, context: AppLoadContext, result: WriteResult<V>, status = 200) {
  if (result.ok) return apiOk(result.value, status);
  const t = await apiT(request, context);
  return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { [result.field]: [t(result.message)] } });
}

/** `GET {resource}` (paginated) and `POST {resource}`. */
export function collectionRoute<V, C extends ZodTypeAny, U extends ZodTypeAny>(resource: Resource<V, C, U>) {
  return {
    loader: async ({ request, context }: LoaderFunctionArgs) => {
      const [db, viewer] = await scopeFor(request, context, resource.read);
      const page = pageSchema.safeParse(query(request));
      if (!page.success) return apiInvalid(request, context, page.error);
      const p = { page: page.data.page, perPage: page.data.per_page };
      const listed = resource.list(db, viewer, p, query(request));
      if ("ok" in listed) return writeReply(request, context, listed);
      return apiOk(paginated(listed.items, listed.total, p));
    },
    action: async ({ request, context }: ActionFunctionArgs) => {
      if (request.method !== "POST" || !resource.create) return apiMethodNotAllowed(request, context, ["GET", ...(resource.create ? ["POST"] : [])]);
      const [db, viewer] = await scopeFor(request, context, resource.write);
      const input = await parseApiBody(request, context, resource.createSchema);
      return writeReply(request, context, resource.create(db, viewer, input), 201);
    },
  };
}

/** `GET {resource}/{id}`, `PUT {resource}/{id}`, `DELETE {resource}/{id}`. */
export function itemRoute<V, C extends ZodTypeAny, U extends ZodTypeAny>(resource: Resource<V, C, U>) {
  const allowed = ["GET", ...(resource.update ? ["PUT"] : []), ...(resource.remove ? ["DELETE"] : [])];
  return {
    loader: async ({ request, context, params }: LoaderFunctionArgs) => {
      const [db, viewer] = await scopeFor(request, context, resource.read);
      const id = idSchema.safeParse(params);
      if (!id.success) return apiNotFound(request, context);
      const value = resource.get(db, viewer, id.data.id);
      return value ? apiOk(value) : apiNotFound(request, context);
    },
    action: async ({ request, context, params }: ActionFunctionArgs) => {
      const method = request.method;
      if (!((method === "PUT" && resource.update) || (method === "DELETE" && resource.remove))) {
        return apiMethodNotAllowed(request, context, allowed);
      }
      const [db, viewer] = await scopeFor(request, context, resource.write);
      const id = idSchema.safeParse(params);
      if (!id.success) return apiNotFound(request, context);
      if (method === "DELETE") {
        return resource.remove!(db, viewer, id.data.id) ? apiOk({ id: id.data.id, deleted: true }) : apiNotFound(request, context);
      }
      const input = await parseApiBody(request, context, resource.updateSchema);
      const result = resource.update!(db, viewer, id.data.id, input);
      return result ? writeReply(request, context, result) : apiNotFound(request, context);
    },
  };
}

/** `GET {resource}/search?q=`. */
export function searchRoute<V, C extends ZodTypeAny, U extends ZodTypeAny>(resource: Resource<V, C, U>) {
  return {
    loader: async ({ request, context }: LoaderFunctionArgs) => {
      const [db, viewer] = await scopeFor(request, context, resource.read);
      const parsed = searchSchema.safeParse(query(request));
      if (!parsed.success) return apiInvalid(request, context, parsed.error);
      const p = { page: parsed.data.page, perPage: parsed.data.per_page };
      const { items, total } = resource.search(db, viewer, parsed.data.q, p);
      return apiOk(paginated(items, total, p));
    },
    action: async ({ request, context }: ActionFunctionArgs) => apiMethodNotAllowed(request, context, ["GET"]),
  };
}

/** `POST {resource}/{id}/move {position}|{direction}`: reorders among its siblings. */
export function moveRoute(capability: Capability, move: (db: TenantDb, viewer: Viewer, id: number, to: import("../models/ordering.server").Move) => boolean) {
  return {
    loader: async ({ request, context }: LoaderFunctionArgs) => apiMethodNotAllowed(request, context, ["POST"]),
    action: async ({ request, context, params }: ActionFunctionArgs) => {
      if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
      const [db, viewer] = await scopeFor(request, context, capability);
      const id = idSchema.safeParse(params);
      if (!id.success) return apiNotFound(request, context);
      const { moveSchema } = await import("../models/ordering.server");
      const to = await parseApiBody(request, context, moveSchema);
      return move(db, viewer, id.data.id, to) ? apiOk({ id: id.data.id, moved: true }) : apiNotFound(request, context);
    },
  };
}
