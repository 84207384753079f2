import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CreateQuiz, createQuizAction, createQuizLoader } from "~/screens/organization-quizzes";
export { links } from "~/screens/quiz-styles";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => createQuizLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => createQuizAction(areaOf(args.request))(args);
export default CreateQuiz;
