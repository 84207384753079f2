import { EditLesson, editLessonAction, editLessonLoader } from "~/screens/organization-courses";

export const loader = editLessonLoader("admin");
export const action = editLessonAction("admin");
export default EditLesson;
