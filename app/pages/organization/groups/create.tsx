import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CreateGroup, createGroupAction, createGroupLoader } from "~/screens/groups";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => createGroupLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => createGroupAction(areaOf(args.request))(args);
export default CreateGroup;
