import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditLesson } from "~/screens/organization-courses";
import { editLessonAction, editLessonLoader } from "~/screens/organization-courses.server";

export const loader = (args: LoaderFunctionArgs) => editLessonLoader("dashboard")(args);
export const action = (args: ActionFunctionArgs) => editLessonAction("dashboard")(args);
export default EditLesson;
