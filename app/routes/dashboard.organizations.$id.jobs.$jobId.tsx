import { JobProgress, jobLoader, jobMeta } from "~/screens/organization-courses";

export const loader = jobLoader("dashboard");
export const meta = jobMeta;
export default JobProgress;
