import { quizResource } from "~/models/quiz-resource.server";
import { searchRoute } from "~/utils/resource.server";

/** Spec §7 "quizzes": `GET /api/quizzes/search?q=`. */
export const { loader, action } = searchRoute(quizResource);
