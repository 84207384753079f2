import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditCourse } from "~/screens/organization-courses";
import { editCourseAction, editCourseLoader } from "~/screens/organization-courses.server";

export const loader = (args: LoaderFunctionArgs) => editCourseLoader("dashboard")(args);
export const action = (args: ActionFunctionArgs) => editCourseAction("dashboard")(args);
export default EditCourse;
