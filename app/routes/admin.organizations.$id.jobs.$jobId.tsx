import { JobProgress, jobLoader, jobMeta } from "~/screens/organization-courses";

export const loader = jobLoader("admin");
export const meta = jobMeta;
export default JobProgress;
