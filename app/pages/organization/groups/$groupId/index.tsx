import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { GroupDetail, groupAction, groupLoader } from "~/screens/group-detail";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => groupLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => groupAction(areaOf(args.request))(args);
export default GroupDetail;
