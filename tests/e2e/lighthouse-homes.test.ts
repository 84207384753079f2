import { describeAudits } from "../helpers/lighthouse-checks";

/**
 * Lighthouse (light theme) and axe-core (dark theme) on the visitor's home, the learner's home and a course
 * page (tests/helpers/lighthouse-checks.ts says how); the lessons and the leaderboard are
 * tests/e2e/lighthouse-lessons.test.ts's.
 */
describeAudits(["visitor-home", "home", "course"]);
