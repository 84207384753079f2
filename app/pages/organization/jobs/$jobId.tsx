import type { LoaderFunctionArgs } from "@remix-run/node";
import { JobProgress, jobMeta } from "~/screens/organization-courses";
import { jobLoader } from "~/screens/organization-courses.server";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => jobLoader(areaOf(args.request))(args);
export const meta = jobMeta;
export default JobProgress;
