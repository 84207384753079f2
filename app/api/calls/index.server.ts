import type { ApiCall } from "../contract.server";
import { adminContracts } from "../contracts/admin.server";
import { authCalls } from "./auth.server";
import { certificateCalls } from "./certificates.server";
import { courseCalls } from "./courses.server";
import { learningCalls } from "./learning.server";
import { leaderboardCalls } from "./leaderboard.server";
import { lessonCalls } from "./lessons.server";
import { quizCalls } from "./quizzes.server";
import { referenceCalls } from "./reference.server";
import { userCalls } from "./users.server";

/** Every /api call (docs/decisions/023-openapi-and-logs.md), in the order the reference lists them. */
export const API_CALLS: readonly ApiCall[] = [
  ...authCalls,
  ...courseCalls,
  ...lessonCalls,
  ...certificateCalls,
  ...leaderboardCalls,
  ...quizCalls,
  ...userCalls,
  ...learningCalls,
  ...adminContracts,
  ...referenceCalls,
];
