import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiMethodNotAllowed, apiOk, apiT } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { CAPABILITY_GROUPS } from "~/utils/capabilities";
import { paginated } from "~/utils/pagination";

/** `GET /api/api/capabilities/groups`: capabilities grouped for display, with translated names. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireApiAuth(request, context);
  const t = await apiT(request, context);
  const items = CAPABILITY_GROUPS.map((g) => ({
    id: g.id,
    name: t(`capabilityGroups.${g.id}`),
    capabilities: g.capabilities.map((id) => ({ id, label: t(`capabilities.${id}`) })),
  }));
  return apiOk(paginated(items, items.length, { page: 1, perPage: items.length }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
