import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { LessonCaptionsPage, lessonCaptionsAction, lessonCaptionsLoader } from "~/screens/lesson-captions";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => lessonCaptionsLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => lessonCaptionsAction(areaOf(args.request))(args);
export default LessonCaptionsPage;
