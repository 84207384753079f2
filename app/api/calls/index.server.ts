import type { ApiCall } from "../contract.server";
import { analyticsCalls } from "./analytics.server";
import { assignmentCalls } from "./assignments.server";
import { authCalls } from "./auth.server";
import { certificateCalls } from "./certificates.server";
import { complianceCalls } from "./compliance.server";
import { courseCalls } from "./courses.server";
import { fileCalls } from "./files.server";
import { learningCalls } from "./learning.server";
import { groupCalls } from "./groups.server";
import { leaderboardCalls } from "./leaderboard.server";
import { lessonCalls } from "./lessons.server";
import { organizationCalls } from "./organizations.server";
import { quizCalls } from "./quizzes.server";
import { referenceCalls } from "./reference.server";
import { userCalls } from "./users.server";
import { captionCalls } from "./captions.server";
import { reminderCalls } from "./reminders.server"; // reminders by e-mail (issue 34)
import { auditCalls } from "./audit.server"; // the audit of what admins did (issue 44)

/** Every /api call (docs/decisions/023-openapi-and-logs.md), in the order the reference lists them. */
export const API_CALLS: readonly ApiCall[] = [
  ...authCalls,
  ...courseCalls,
  ...lessonCalls,
  ...captionCalls,
  ...certificateCalls,
  ...leaderboardCalls,
  ...quizCalls,
  ...userCalls,
  ...learningCalls,
  ...fileCalls,
  ...groupCalls,
  ...auditCalls,
  // Compliance assignments (issue 34).
  ...assignmentCalls,
  ...analyticsCalls,
  ...complianceCalls,
  ...organizationCalls,
  ...referenceCalls,
  ...reminderCalls, // reminders by e-mail (issue 34)
];
