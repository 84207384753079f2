import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditCourse } from "~/screens/organization-courses";
import { editCourseAction, editCourseLoader } from "~/screens/organization-courses.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => editCourseLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => editCourseAction(areaOf(args.request))(args);
export default EditCourse;
