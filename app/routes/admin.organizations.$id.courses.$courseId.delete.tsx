import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DeleteCourse } from "~/screens/organization-courses";
import { deleteCourseAction, deleteCourseLoader } from "~/screens/organization-courses.server";

export const loader = (args: LoaderFunctionArgs) => deleteCourseLoader("admin")(args);
export const action = (args: ActionFunctionArgs) => deleteCourseAction("admin")(args);
export default DeleteCourse;
