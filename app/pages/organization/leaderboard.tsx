import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { LeaderboardTab } from "~/screens/organization-leaderboard";
import { leaderboardTabAction, leaderboardTabLoader } from "~/screens/organization-leaderboard-data";
import styles from "~/styles/leaderboard.css";
import { areaOf } from "~/kernel/manage.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: styles }];
export const loader = (args: LoaderFunctionArgs) => leaderboardTabLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => leaderboardTabAction(areaOf(args.request))(args);
export default LeaderboardTab;
