import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { search } from "~/models/learning.server";
import { apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { pageSchema, paginated } from "~/utils/pagination";

export const querySchema = pageSchema.extend({ q: z.string().trim().min(1).max(200) });

/** `GET /api/search?q=`: ranked hits among the courses, lessons and materials the caller may see. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  const auth = await requireApiAuth(request, context, { capability: "read:course" });
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiInvalid(request, context, query.error);
  const p = { page: query.data.page, perPage: query.data.per_page };
  const { items, total } = search(context.db, auth, query.data.q, { limit: p.perPage, offset: (p.page - 1) * p.perPage });
  return apiOk(paginated(items, total, p));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
