import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { revokeDevice } from "~/models/auth/session.server";
import { apiInvalid, apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiSession , realmFor } from "~/kernel/auth.server";

const paramsSchema = z.object({ id: z.coerce.number().int().positive() });

/** `DELETE /api/devices/{id}`: signs that device out; its token fails on its very next call. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (request.method !== "DELETE") return apiMethodNotAllowed(request, context, ["DELETE"]);
  const auth = await requireApiSession(request, context);
  const parsed = paramsSchema.safeParse(params);
  if (!parsed.success) return apiInvalid(request, context, parsed.error);
  // Another person's device is as absent as one that never existed.
  if (!revokeDevice(realmFor(context), auth.person.id, parsed.data.id)) return apiNotFound(request, context);
  return apiOk({ id: parsed.data.id, revoked: true });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["DELETE"]);
}
