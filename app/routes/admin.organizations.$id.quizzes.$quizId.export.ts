import { exportQuizLoader } from "~/screens/organization-quiz";

/** The quiz's results as CSV (a download from the quiz's screen). */
export const loader = exportQuizLoader("admin");
