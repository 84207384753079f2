import { DeleteCourse, deleteCourseAction, deleteCourseLoader } from "~/screens/organization-courses";

export const loader = deleteCourseLoader("dashboard");
export const action = deleteCourseAction("dashboard");
export default DeleteCourse;
