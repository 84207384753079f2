import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Assignments } from "~/screens/assignments";
import { courseAssignmentsAction, courseAssignmentsLoader } from "~/screens/assignments.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => courseAssignmentsLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => courseAssignmentsAction(areaOf(args.request))(args);
export default Assignments;
