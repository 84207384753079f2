import type { LoaderFunctionArgs } from "@remix-run/node";
import { JobProgress, jobMeta } from "~/screens/organization-courses";
import { jobLoader } from "~/screens/organization-courses.server";

export const loader = (args: LoaderFunctionArgs) => jobLoader("dashboard")(args);
export const meta = jobMeta;
export default JobProgress;
