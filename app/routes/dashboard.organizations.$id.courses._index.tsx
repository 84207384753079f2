import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CoursesList } from "~/screens/organization-courses";
import { coursesAction, coursesLoader } from "~/screens/organization-courses.server";

export const loader = (args: LoaderFunctionArgs) => coursesLoader("dashboard")(args);
export const action = (args: ActionFunctionArgs) => coursesAction("dashboard")(args);
export default CoursesList;
