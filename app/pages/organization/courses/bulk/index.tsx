import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { CourseBulk } from "~/screens/course-bulk";
import { courseBulkAction, courseBulkLoader } from "~/screens/course-bulk.server";

// A bulk action on courses (issue 50): how many it reaches, what it needs, and the button that starts its job.
export const loader = (args: LoaderFunctionArgs) => courseBulkLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => courseBulkAction(areaOf(args.request))(args);
export default CourseBulk;
