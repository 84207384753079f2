import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CoursesList } from "~/screens/organization-courses";
import { coursesAction, coursesLoader } from "~/screens/organization-courses.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => coursesLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => coursesAction(areaOf(args.request))(args);
export default CoursesList;
