import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { certificateCaller, certificatesFor, listQuery, viewFor } from "~/screens/certificate-api.server";
import { apiInvalid, apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { paginated } from "~/utils/pagination";

/**
 * `GET /api/certificates`: the caller's certificates (`scope=all`: the organization's, for holders of
 * read:certificate-template). Certificates are issued by completing a course, never posted.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const caller = await certificateCaller(request, context);
  const query = listQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return apiInvalid(request, context, query.error);
  const { items, total, page } = certificatesFor(caller, query.data);
  return apiOk(paginated(items.map((c) => viewFor(context, c)), total, page));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
