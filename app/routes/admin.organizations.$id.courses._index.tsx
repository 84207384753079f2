import { CoursesList, coursesAction, coursesLoader } from "~/screens/organization-courses";

export const loader = coursesLoader("admin");
export const action = coursesAction("admin");
export default CoursesList;
