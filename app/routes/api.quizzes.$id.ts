import { quizResource } from "~/models/quiz-resource.server";
import { itemRoute } from "~/kernel/resource.server";

/** Spec §7 "quizzes": `GET|PUT|DELETE /api/quizzes/{id}` (PUT body: `updateQuizSchema` in app/models/quiz.server.ts). */
export const { loader, action } = itemRoute(quizResource);
