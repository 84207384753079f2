import type { LinksFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import styles from "~/styles/leaderboard.css";
import { useTranslation } from "~/utils/translate";
import { BadgeImage } from "./badge-image";

/** The stylesheet, for the routes that show these parts (`export const links = leaderboardLinks`). */
export const leaderboardLinks: LinksFunction = () => [{ rel: "stylesheet", href: styles }];

export interface LevelData {
  id: number;
  name: string;
  threshold: number;
  color: string;
}

export interface SummaryData {
  points: number;
  level: LevelData | null;
  next_level: LevelData | null;
  percent: number;
  to_next: number;
  rank: number;
  hidden: boolean;
  streak: number;
  longest_streak: number;
  /** `awarded_on`: the date written out by the server (app/screens/leaderboard-page.server.ts `withBadgeDates`). */
  badges: Array<{ id: number; name: string; description: string; color: string; uid: string; awarded_at: string; awarded_on: string }>;
}

/** A learner's points, level and progress to the next, rank and streak (on /profile and /leaderboard). */
export function LevelCard({ summary }: { summary: SummaryData }) {
  const { t } = useTranslation();
  return (
    <div className="lb-card lb-level" data-testid="level-card">
      {summary.level ? <BadgeImage name={summary.level.name} color={summary.level.color} size={56} /> : null}
      <div className="lb-level-body">
        <p className="lb-eyebrow">{t("leaderboard.level")}</p>
        <p className="lb-level-name" data-testid="level-name">
          {summary.level?.name ?? "—"}
        </p>
        <div
          className="lb-progress"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={summary.percent}
          aria-label={t("leaderboard.progress")}
        >
          <span style={{ width: `${summary.percent}%` }} />
        </div>
        <p className="lb-muted" data-testid="level-next">
          {summary.next_level
            ? t("leaderboard.toNext", { count: summary.to_next, level: summary.next_level.name })
            : t("leaderboard.topLevel")}
        </p>
      </div>
      <dl className="lb-stats">
        <div>
          <dt>{t("leaderboard.points")}</dt>
          <dd data-testid="my-points">{summary.points}</dd>
        </div>
        <div>
          <dt>{t("leaderboard.rank")}</dt>
          <dd data-testid="my-rank">#{summary.rank}</dd>
        </div>
        <div>
          <dt>{t("leaderboard.streak")}</dt>
          <dd data-testid="my-streak">{t("leaderboard.days", { count: summary.streak })}</dd>
        </div>
      </dl>
    </div>
  );
}

export function BadgeList({ badges }: { badges: SummaryData["badges"] }) {
  const { t } = useTranslation();
  if (!badges.length) return <p className="empty-state">{t("leaderboard.noBadges")}</p>;
  return (
    <ul className="lb-badges" data-testid="badges">
      {badges.map((b) => (
        <li key={b.id} data-badge={b.name}>
          <BadgeImage name={b.name} color={b.color} size={44} />
          <div>
            <strong>{b.name}</strong>
            {b.description ? <span className="lb-muted">{b.description}</span> : null}
            <span className="lb-muted">
              {t("leaderboard.earnedOn", { date: b.awarded_on })} · <a href={`/badges/assertions/${b.uid}`}>{t("leaderboard.openBadge")}</a>
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The profile's part: level, points, rank, badges, and a way to the full board. */
export function LeaderboardSummary({ summary }: { summary: SummaryData }) {
  const { t } = useTranslation();
  return (
    <section className="panel" data-testid="leaderboard-summary">
      <div className="toolbar">
        <h2>{t("leaderboard.yourProgress")}</h2>
        <Link to="/leaderboard">{t("leaderboard.seeBoard")}</Link>
      </div>
      <LevelCard summary={summary} />
      <h3>{t("leaderboard.badges")}</h3>
      <BadgeList badges={summary.badges} />
    </section>
  );
}
