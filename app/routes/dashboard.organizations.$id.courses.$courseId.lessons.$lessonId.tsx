import { EditLesson, editLessonAction, editLessonLoader } from "~/screens/organization-courses";

export const loader = editLessonLoader("dashboard");
export const action = editLessonAction("dashboard");
export default EditLesson;
