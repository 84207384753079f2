import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { may } from "~/access/rules";
import { apiMethodNotAllowed, apiOk, apiT } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { CAPABILITIES, CAPABILITY_GROUPS } from "~/utils/capabilities";
import { paginated } from "~/utils/pagination";

/**
 * `GET /api/api/capabilities`: every capability, its group and label, and whether the caller holds it
 * (a token can be given only those it holds).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireApiAuth(request, context);
  const t = await apiT(request, context);
  const groupOf = new Map(CAPABILITY_GROUPS.flatMap((g) => g.capabilities.map((c) => [c, g.id] as const)));
  const items = CAPABILITIES.map((id) => ({
    id,
    group: groupOf.get(id) ?? null,
    label: t(`capabilities.${id}`),
    granted: may(auth, id),
  }));
  return apiOk(paginated(items, items.length, { page: 1, perPage: items.length }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
