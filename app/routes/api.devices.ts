import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deviceView, listDevices } from "~/models/auth/session.server";
import { apiMethodNotAllowed, apiOk } from "~/utils/api.server";
import { requireApiSession , realmFor } from "~/kernel/auth.server";
import { paginated } from "~/utils/pagination";

/** `GET /api/devices`: the caller's own signed-in devices (browsers and tokens). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireApiSession(request, context);
  const devices = listDevices(realmFor(context), auth.person.id).map((s) => deviceView(s, auth.session.id));
  return apiOk(paginated(devices, devices.length, { page: 1, perPage: Math.max(devices.length, 1) }));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
