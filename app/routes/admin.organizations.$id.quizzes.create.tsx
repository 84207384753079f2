import { CreateQuiz, createQuizAction, createQuizLoader } from "~/screens/organization-quizzes";
export { links } from "~/screens/quiz-styles";

export const loader = createQuizLoader("admin");
export const action = createQuizAction("admin");
export default CreateQuiz;
