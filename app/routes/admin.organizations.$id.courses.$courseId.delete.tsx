import { DeleteCourse, deleteCourseAction, deleteCourseLoader } from "~/screens/organization-courses";

export const loader = deleteCourseLoader("admin");
export const action = deleteCourseAction("admin");
export default DeleteCourse;
