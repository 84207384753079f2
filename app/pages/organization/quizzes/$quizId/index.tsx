import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditQuiz, quizAction, quizLoader } from "~/screens/organization-quiz";
export { links } from "~/screens/quiz-styles";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => quizLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => quizAction(areaOf(args.request))(args);
export default EditQuiz;
