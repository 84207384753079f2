import { DeleteQuiz, deleteQuizAction, deleteQuizLoader } from "~/screens/organization-quizzes";

export const loader = deleteQuizLoader("dashboard");
export const action = deleteQuizAction("dashboard");
export default DeleteQuiz;
