import { EditQuiz, quizAction, quizLoader } from "~/screens/organization-quiz";
export { links } from "~/screens/quiz-styles";

export const loader = quizLoader("admin");
export const action = quizAction("admin");
export default EditQuiz;
