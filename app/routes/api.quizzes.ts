import { quizResource } from "~/models/quiz-resource.server";
import { collectionRoute } from "~/kernel/resource.server";

/** Spec §7 "quizzes": `GET /api/quizzes`, `POST /api/quizzes` (body: `createQuizSchema` in app/models/quiz.server.ts). */
export const { loader, action } = collectionRoute(quizResource);
