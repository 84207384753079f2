import type { ApiCall } from "../contract.server";
import { analyticsCalls } from "./analytics.server";
import { assignmentCalls } from "./assignments.server";
import { signInCalls } from "./sign-in.server";
import { sessionCalls } from "./session.server";
import { mailLinkCalls } from "./mail-links.server";
import { ssoCalls } from "./sso.server";
import { deviceCalls } from "./devices.server";
import { apiTokenCalls } from "./api-tokens.server";
import { capabilityCalls } from "./capabilities.server";
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
import { peopleBulkCalls } from "./people-bulk.server"; // bulk actions on people (issue 50)
import { courseBulkCalls } from "./course-bulk.server"; // bulk actions on courses (issue 50)
import { personCalls } from "./person.server"; // a person, whole (issue 50)
import { xapiCalls } from "./xapi.server"; // the Learning Record Store (issue 47)
import { pathCalls } from "./paths.server"; // learning paths (issue 49)
import { pathAssignmentCalls } from "./path-assignments.server"; // learning paths assigned (issue 49)

/** Every /api call (docs/decisions/023-openapi-and-logs.md), in the order the reference lists them. */
export const API_CALLS: readonly ApiCall[] = [
  // Signing in, the caller's sessions and the organization's API tokens (docs/product.md §7 "Auth", "API").
  ...signInCalls,
  ...sessionCalls,
  ...mailLinkCalls,
  ...ssoCalls,
  ...deviceCalls,
  ...apiTokenCalls,
  ...capabilityCalls,
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
  ...peopleBulkCalls,
  ...courseBulkCalls,
  ...personCalls,
  // Compliance assignments (issue 34).
  ...assignmentCalls,
  ...analyticsCalls,
  ...complianceCalls,
  ...organizationCalls,
  ...referenceCalls,
  ...reminderCalls, // reminders by e-mail (issue 34)
  ...xapiCalls, // the Learning Record Store (issue 47)
  ...pathCalls, // learning paths (issue 49)
  ...pathAssignmentCalls, // learning paths assigned (issue 49)
];
