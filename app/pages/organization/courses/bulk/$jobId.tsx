import type { LoaderFunctionArgs } from "@remix-run/node";
import { areaOf } from "~/kernel/manage.server";
import { CourseBulkJob, courseBulkJobMeta } from "~/screens/course-bulk";
import { courseBulkJobLoader } from "~/screens/course-bulk.server";

// A bulk action's job on courses (issue 50): its progress, then what was done, left as it was and refused.
export const loader = (args: LoaderFunctionArgs) => courseBulkJobLoader(areaOf(args.request))(args);
export const meta = courseBulkJobMeta;
export default CourseBulkJob;
