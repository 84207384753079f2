import { EditCourse, editCourseAction, editCourseLoader } from "~/screens/organization-courses";

export const loader = editCourseLoader("dashboard");
export const action = editCourseAction("dashboard");
export default EditCourse;
