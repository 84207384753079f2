import { describeAudits } from "../helpers/lighthouse-checks";

/**
 * Lighthouse (light theme) and axe-core (dark theme) on a video lesson, a quiz lesson and the leaderboard
 * (tests/helpers/lighthouse-checks.ts says how); the homes and the course page are
 * tests/e2e/lighthouse-homes.test.ts's.
 */
describeAudits(["video", "quiz", "leaderboard"]);
