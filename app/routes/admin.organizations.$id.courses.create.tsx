import { CreateCourse, createCourseAction, createCourseLoader } from "~/screens/organization-courses";

export const loader = createCourseLoader("admin");
export const action = createCourseAction("admin");
export default CreateCourse;
