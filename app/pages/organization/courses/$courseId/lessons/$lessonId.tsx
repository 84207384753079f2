import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditLesson } from "~/screens/organization-courses";
import { editLessonAction, editLessonLoader } from "~/screens/organization-courses.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => editLessonLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => editLessonAction(areaOf(args.request))(args);
export default EditLesson;
