import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Assignments } from "~/screens/assignments";
import { groupAssignmentsAction, groupAssignmentsLoader } from "~/screens/assignments.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => groupAssignmentsLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => groupAssignmentsAction(areaOf(args.request))(args);
export default Assignments;
