import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DeleteGroup, deleteGroupAction, deleteGroupLoader } from "~/screens/groups";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => deleteGroupLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => deleteGroupAction(areaOf(args.request))(args);
export default DeleteGroup;
