import { EditQuiz, quizAction, quizLoader } from "~/screens/organization-quiz";
export { links } from "~/screens/quiz-styles";

export const loader = quizLoader("dashboard");
export const action = quizAction("dashboard");
export default EditQuiz;
