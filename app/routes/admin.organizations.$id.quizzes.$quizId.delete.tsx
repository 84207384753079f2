import { DeleteQuiz, deleteQuizAction, deleteQuizLoader } from "~/screens/organization-quizzes";

export const loader = deleteQuizLoader("admin");
export const action = deleteQuizAction("admin");
export default DeleteQuiz;
