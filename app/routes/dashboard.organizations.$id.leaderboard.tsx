import type { LinksFunction } from "@remix-run/node";
import { LeaderboardTab } from "~/screens/organization-leaderboard";
import { leaderboardTabAction, leaderboardTabLoader } from "~/screens/organization-leaderboard-data";
import styles from "~/styles/leaderboard.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const loader = leaderboardTabLoader("dashboard");
export const action = leaderboardTabAction("dashboard");
export default LeaderboardTab;
