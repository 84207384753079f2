import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DeleteCourse } from "~/screens/organization-courses";
import { deleteCourseAction, deleteCourseLoader } from "~/screens/organization-courses.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => deleteCourseLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => deleteCourseAction(areaOf(args.request))(args);
export default DeleteCourse;
