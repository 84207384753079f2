import { CoursesList, coursesAction, coursesLoader } from "~/screens/organization-courses";

export const loader = coursesLoader("dashboard");
export const action = coursesAction("dashboard");
export default CoursesList;
