import { CreateQuiz, createQuizAction, createQuizLoader } from "~/screens/organization-quizzes";
export { links } from "~/screens/quiz-styles";

export const loader = createQuizLoader("dashboard");
export const action = createQuizAction("dashboard");
export default CreateQuiz;
