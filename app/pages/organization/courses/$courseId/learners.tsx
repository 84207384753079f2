import type { LoaderFunctionArgs } from "@remix-run/node";
import { CourseLearners } from "~/screens/course-learners";
import { courseLearnersLoader } from "~/screens/course-learners.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => courseLearnersLoader(areaOf(args.request))(args);
export default CourseLearners;
