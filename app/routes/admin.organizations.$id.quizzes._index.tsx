import { QuizzesList, quizzesLoader } from "~/screens/organization-quizzes";
export { links } from "~/screens/quiz-styles";

export const loader = quizzesLoader("admin");
export default QuizzesList;
