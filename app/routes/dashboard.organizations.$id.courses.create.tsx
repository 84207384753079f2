import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CreateCourse } from "~/screens/organization-courses";
import { createCourseAction, createCourseLoader } from "~/screens/organization-courses.server";

export const loader = (args: LoaderFunctionArgs) => createCourseLoader("dashboard")(args);
export const action = (args: ActionFunctionArgs) => createCourseAction("dashboard")(args);
export default CreateCourse;
