import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { certificateCaller, certificatesFor, listQuery, viewFor } from "~/screens/certificate-api.server";
import { apiInvalid, apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { paginated } from "~/utils/pagination";

export const searchQuery = listQuery.extend({ q: z.string().trim().min(1).max(200) });

/** `GET /api/certificates/search?q=`: by course title, learner name or certificate id (same scope as the list). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const caller = await certificateCaller(request, context);
  const query = searchQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiInvalid(request, context, query.error);
  const { items, total, page } = certificatesFor(caller, query.data);
  return apiOk(paginated(items.map((c) => viewFor(context, c)), total, page));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
