import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportQuizLoader } from "~/screens/organization-quiz";
import { areaOf } from "~/kernel/manage.server";

/** The quiz's results as CSV (a download from the quiz's screen). */
export const loader = (args: LoaderFunctionArgs) => exportQuizLoader(areaOf(args.request))(args);
