import { EditCourse, editCourseAction, editCourseLoader } from "~/screens/organization-courses";

export const loader = editCourseLoader("admin");
export const action = editCourseAction("admin");
export default EditCourse;
