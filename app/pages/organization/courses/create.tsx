import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CreateCourse } from "~/screens/organization-courses";
import { createCourseAction, createCourseLoader } from "~/screens/organization-courses.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => createCourseLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => createCourseAction(areaOf(args.request))(args);
export default CreateCourse;
