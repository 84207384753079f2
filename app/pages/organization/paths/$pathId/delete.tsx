import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { deletePathAction, deletePathLoader } from "~/screens/organization-paths.server";
import { DeletePath } from "~/screens/organization-paths";

export const loader = (args: LoaderFunctionArgs) => deletePathLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => deletePathAction(areaOf(args.request))(args);
export default DeletePath;
