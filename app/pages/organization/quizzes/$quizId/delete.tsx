import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DeleteQuiz, deleteQuizAction, deleteQuizLoader } from "~/screens/organization-quizzes";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => deleteQuizLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => deleteQuizAction(areaOf(args.request))(args);
export default DeleteQuiz;
