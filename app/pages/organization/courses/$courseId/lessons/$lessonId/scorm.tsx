import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ScormPackagePage, scormPackageAction, scormPackageLoader } from "~/screens/lesson-scorm";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => scormPackageLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => scormPackageAction(areaOf(args.request))(args);
export default ScormPackagePage;
