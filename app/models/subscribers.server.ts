import { setSubscribers } from "./events.server";
import { assignmentsForCourseCompleted } from "./assignment-membership.server";
import { recordCourseCompleted, recordQuizAttempt, recordWatchTime } from "./analytics.server";
import { issueCertificate } from "./certificate-issuing.server";
import { recomputeUserMemberships } from "./group-rule-members.server";
import { completePathsAfterCourse } from "./paths/enrolments.server";
import { pathAssignmentsDone } from "./paths/assignments.server";
import { issuePathCertificate, rewardPathCompleted } from "./paths/rewards.server";
import {
  pointsForBookmark,
  pointsForCourseCompleted,
  pointsForLessonCompleted,
  pointsForQuizAttempt,
  pointsForWatchTime,
} from "./points.server";

/**
 * Who reacts to each learning event (app/models/events.server.ts), in order. Called at start-up by every
 * program that records learning: the Remix app (app/entry.server.tsx), the server's own bundle
 * (server/index.ts, whose jobs use the models), the demo seed (scripts/demo.ts) and tests that call the
 * models directly. Calling it again changes nothing.
 */
export function subscribeLearningEvents() {
  setSubscribers({
    lessonCompleted: [pointsForLessonCompleted],
    courseCompleted: [
      (tx, e) => void issueCertificate(tx, e),
      recordCourseCompleted,
      // groups: "completed course X" rules
      (tx, e) => recomputeUserMemberships(tx, e.userId),
      // assignments: done (after the groups, so one the completion just brought is done too)
      assignmentsForCourseCompleted,
      pointsForCourseCompleted,
      // learning paths: one whose last step this completion finishes is done (issue 49)
      (tx, e) => void completePathsAfterCourse(tx, e),
    ],
    // learning paths (issue 49): the path's certificate, points and badge
    pathCompleted: [(tx, e) => void issuePathCertificate(tx, e), rewardPathCompleted, pathAssignmentsDone],
    quizAttemptEnded: [recordQuizAttempt, pointsForQuizAttempt],
    bookmarked: [pointsForBookmark],
    watchTimeCredited: [recordWatchTime, pointsForWatchTime],
  });
}
