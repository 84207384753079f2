import { quizResource } from "~/models/quiz-resource.server";
import { searchRoute } from "~/kernel/resource.server";

/** Spec §7 "quizzes": `GET /api/quizzes/search?q=`. */
export const { loader, action } = searchRoute(quizResource);
