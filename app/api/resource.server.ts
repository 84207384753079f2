import type { AppLoadContext } from "@remix-run/node";
import { z, type ZodTypeAny } from "zod";
import type { TenantDb } from "~/models/database.server";
import type { Viewer } from "~/access/viewer";
import { moveSchema, type Move } from "~/models/ordering.server";
import type { Resource, WriteResult } from "~/models/resource";
import { apiError, apiNotFound, apiOk, apiT } from "~/utils/api.server";
import type { Capability } from "~/utils/capabilities";
import { pageSchema, paginated } from "~/utils/pagination";
import { call, deleted, E, guarded, moved, page, type ApiCall, type CallArgs } from "./contract.server";

/**
 * The generic /api resource calls (docs/product.md §7: GET {resource}, GET {resource}/search, GET {resource}/{id},
 * POST {resource}, PUT {resource}/{id}, DELETE {resource}/{id}), declared for a `Resource`
 * (app/models/resource.ts): its capabilities, its schemas and its model functions. The dispatcher checks
 * the capability and the input; these handlers do the rest the same way for every resource: the
 * organization's database, the id, pagination, and a model's refusal as a 422 on its field.
 */

const idSchema = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const searchSchema = pageSchema.extend({ q: z.string().trim().min(1).max(200) });

/** The organization's database (a capability call only runs on an organization's host). */
function dbOf(context: AppLoadContext): TenantDb {
  return context.db!;
}

/** The id in the path, or a thrown 404. */
export async function idOf(request: Request, context: AppLoadContext, params: Record<string, string>) {
  const parsed = idSchema.safeParse(params);
  if (!parsed.success) throw await apiNotFound(request, context);
  return parsed.data.id;
}

/** A path id that is no id is a 404 before any body is read. */
async function checkId({ request, context, params }: Pick<CallArgs, "request" | "context" | "params">) {
  await idOf(request, context, params);
  return undefined;
}

async function writeReply<V>(request: Request, context: AppLoadContext, result: WriteResult<V>, status = 200) {
  if (result.ok) return apiOk(result.value, status);
  const t = await apiT(request, context);
  return apiError(422, { message: t("api.invalid"), code: "invalid", fields: { [result.field]: [t(result.message)] } });
}

export interface ResourceDoc<V, C extends ZodTypeAny, U extends ZodTypeAny> {
  base: string;
  tag: string;
  noun: string;
  view: ZodTypeAny;
  resource: Resource<V, C, U>;
  createExample?: unknown;
  updateExample?: unknown;
  replyExample: unknown;
  /** Filters of the list call beyond the page (e.g. `course_id`). */
  filters?: string;
  /** The list and read calls' capability when it differs from the resource's `read`. */
  readNote?: string;
  /** Set when the resource's writes are declared on their own (users: who may give which role). */
  itemWrites?: false;
}

/** The generic calls of a resource: list, search and read; create, change and delete where the resource has them. */
export function resourceCalls<V, C extends ZodTypeAny, U extends ZodTypeAny>(doc: ResourceDoc<V, C, U>): ApiCall[] {
  const { base, tag, noun, view, resource } = doc;
  const listMeta = { current_page: 1, per_page: 20, total: 1, last_page: 1 };
  const calls: ApiCall[] = [
    call({
      method: "GET",
      path: base,
      tag,
      summary: `List ${noun}s`,
      description: `Paginated, oldest position first.${doc.filters ? ` ${doc.filters}` : ""}${doc.readNote ? ` ${doc.readNote}` : ""}`,
      access: resource.read,
      query: pageSchema,
      reply: page(view),
      errors: guarded(E.invalid),
      example: { query: { page: "1", per_page: "20" }, reply: { data: [doc.replyExample], meta: listMeta } },
      handler: async ({ request, context, viewer, query }) => {
        const p = { page: query.page, perPage: query.per_page };
        const listed = resource.list(dbOf(context), viewer, p, Object.fromEntries(new URL(request.url).searchParams));
        if ("ok" in listed) return writeReply(request, context, listed);
        return paginated(listed.items, listed.total, p);
      },
    }),
    call({
      method: "GET",
      path: `${base}/search`,
      tag,
      summary: `Search ${noun}s`,
      description: "`q` is matched against the names and titles; paginated.",
      access: resource.read,
      query: searchSchema,
      reply: page(view),
      errors: guarded(E.invalid),
      example: { query: { q: "intro" }, reply: { data: [doc.replyExample], meta: listMeta } },
      handler: ({ context, viewer, query }) => {
        const p = { page: query.page, perPage: query.per_page };
        const { items, total } = resource.search(dbOf(context), viewer, query.q, p);
        return paginated(items, total, p);
      },
    }),
    call({
      method: "GET",
      path: `${base}/{id}`,
      tag,
      summary: `Read one ${noun}`,
      access: resource.read,
      reply: view,
      errors: guarded(),
      example: { reply: doc.replyExample },
      handler: async ({ request, context, params, viewer }) => {
        const value = resource.get(dbOf(context), viewer, await idOf(request, context, params));
        return value ?? apiNotFound(request, context);
      },
    }),
  ];
  const { create, update, remove } = resource;
  if (create) {
    calls.push(
      call({
        method: "POST",
        path: base,
        tag,
        summary: `Create a ${noun}`,
        description: "Unknown fields are ignored.",
        access: resource.write,
        body: resource.createSchema as ZodTypeAny,
        reply: view,
        status: 201,
        errors: guarded(E.invalid, E.invalidBody),
        example: { body: doc.createExample, reply: doc.replyExample },
        handler: ({ request, context, viewer, body }) =>
          writeReply(request, context, create.call(resource, dbOf(context), viewer, body), 201),
      }),
    );
  }
  if (update && doc.itemWrites !== false) {
    calls.push(
      call({
        method: "PUT",
        path: `${base}/{id}`,
        tag,
        summary: `Change a ${noun}`,
        description: "Only the fields sent change.",
        access: resource.write,
        body: resource.updateSchema as ZodTypeAny,
        reply: view,
        errors: guarded(E.invalid, E.invalidBody),
        example: { body: doc.updateExample, reply: doc.replyExample },
        before: checkId,
        handler: async ({ request, context, params, viewer, body }) => {
          const result = update.call(resource, dbOf(context), viewer, await idOf(request, context, params), body);
          return result ? writeReply(request, context, result) : apiNotFound(request, context);
        },
      }),
    );
  }
  if (remove && doc.itemWrites !== false) {
    calls.push(
      call({
        method: "DELETE",
        path: `${base}/{id}`,
        tag,
        summary: `Delete a ${noun}`,
        access: resource.write,
        reply: deleted,
        errors: guarded(),
        example: { reply: { id: 7, deleted: true } },
        handler: async ({ request, context, params, viewer }) => {
          const id = await idOf(request, context, params);
          return remove.call(resource, dbOf(context), viewer, id) ? { id, deleted: true } : apiNotFound(request, context);
        },
      }),
    );
  }
  return calls;
}

/** `POST {resource}/{id}/move {position}|{direction}`: reorders among its siblings. */
export function moveCall(
  base: string,
  tag: string,
  noun: string,
  access: Capability,
  note: string,
  move: (db: TenantDb, viewer: Viewer, id: number, to: Move) => boolean,
): ApiCall {
  return call({
    method: "POST",
    path: `${base}/{id}/move`,
    tag,
    summary: `Reorder a ${noun}`,
    description: `Moves it to \`position\` (0-based) or one step \`up\`/\`down\`${note}.`,
    access,
    body: moveSchema,
    reply: moved,
    errors: guarded(E.invalid, E.invalidBody),
    example: { body: { direction: "up" }, reply: { id: 7, moved: true } },
    before: checkId,
    handler: async ({ request, context, params, viewer, body }) => {
      const id = await idOf(request, context, params);
      return move(dbOf(context), viewer, id, body) ? { id, moved: true } : apiNotFound(request, context);
    },
  });
}
