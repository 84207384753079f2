import type { LoaderFunctionArgs } from "@remix-run/node";
import { PeopleBulkJob, peopleBulkJobMeta } from "~/screens/people-bulk";
import { peopleBulkJobLoader } from "~/screens/people-bulk.server";

// A bulk action's job (issue 50): its progress, then what was done, left as it was and refused.
export const loader = (args: LoaderFunctionArgs) => peopleBulkJobLoader(args);
export const meta = peopleBulkJobMeta;
export default PeopleBulkJob;
