import { CreateCourse, createCourseAction, createCourseLoader } from "~/screens/organization-courses";

export const loader = createCourseLoader("dashboard");
export const action = createCourseAction("dashboard");
export default CreateCourse;
