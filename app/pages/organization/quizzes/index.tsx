import type { LoaderFunctionArgs } from "@remix-run/node";
import { QuizzesList, quizzesLoader } from "~/screens/organization-quizzes";
export { links } from "~/screens/quiz-styles";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => quizzesLoader(areaOf(args.request))(args);
export default QuizzesList;
