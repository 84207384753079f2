import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditUser, editUserAction, editUserLoader } from "~/screens/organization-users";

/**
 * /admin/users/{id}: a person across the platform. People live in their organization's database, so
 * the id names both: `<organization id>-<user id>` (e.g. /admin/users/3-17).
 */
const mount = { area: "admin" as const, usersBase: (m: { base: string }) => `${m.base}/users` };

function split(params: LoaderFunctionArgs["params"]) {
  const match = /^(\d+)-(\d+)$/.exec(params.id ?? "");
  if (!match) throw new Response("Not Found", { status: 404 });
  return { id: match[1], userId: match[2] };
}

export const loader = (args: LoaderFunctionArgs) => editUserLoader(mount)({ ...args, params: split(args.params) });
export const action = (args: ActionFunctionArgs) => editUserAction(mount)({ ...args, params: split(args.params) });
export default EditUser;
