import { useTranslation } from "~/utils/translate";

interface Entry {
  rank: number;
  user_id: number;
  name: string;
  points: number;
}

/**
 * A board, best first. The learner's own row is highlighted; when they are outside the top (or opted
 * out) their standing follows below the list.
 */
export function BoardTable({
  entries,
  me,
  meId,
  unit,
}: {
  entries: Entry[];
  me: { rank: number; points: number; hidden: boolean };
  meId: number;
  unit: string;
}) {
  const { t } = useTranslation();
  const listed = entries.some((e) => e.user_id === meId);
  if (!entries.length && !me.points)
    return (
      <p className="empty-state" data-testid="board-empty">
        {t("leaderboard.empty")}
      </p>
    );
  return (
    <table className="table lb-board" data-testid="board">
      <thead>
        <tr>
          <th scope="col">{t("leaderboard.rank")}</th>
          <th scope="col">{t("leaderboard.learner")}</th>
          <th scope="col" className="num">
            {t("leaderboard.points")}
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.user_id} className={e.user_id === meId ? "lb-me" : undefined} data-learner={e.name}>
            <td>
              <span className={`lb-rank lb-rank-${e.rank <= 3 ? e.rank : "n"}`}>{e.rank}</span>
            </td>
            <td>
              {e.name}
              {e.user_id === meId ? <span className="badge">{t("leaderboard.you")}</span> : null}
            </td>
            <td className="num">
              {e.points} <span className="lb-muted">{unit}</span>
            </td>
          </tr>
        ))}
        {!listed ? (
          <tr className="lb-me lb-me-outside" data-testid="my-row">
            <td>
              <span className="lb-rank lb-rank-n">{me.rank}</span>
            </td>
            <td>
              {t("leaderboard.you")}
              {me.hidden ? <span className="badge">{t("leaderboard.hidden")}</span> : null}
            </td>
            <td className="num">
              {me.points} <span className="lb-muted">{unit}</span>
            </td>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}

function formatValue(name: string, value: number, t: (k: string, o?: Record<string, unknown>) => string) {
  if (name === "watch-time") return t("leaderboard.minutes", { count: Math.round(value / 60) });
  if (name === "streak") return t("leaderboard.days", { count: value });
  return t("leaderboard.bookmarkCount", { count: value });
}

/** docs/product.md §9 widgets: bookmarks in 30 days, watch time in 7 days, daily streak. */
export function WidgetCard({
  name,
  entries,
  mine,
  meId,
}: {
  name: string;
  entries: Array<{ rank: number; user_id: number; name: string; value: number }>;
  mine: number;
  meId: number;
}) {
  const { t } = useTranslation();
  return (
    <section className="lb-card lb-widget" data-testid={`widget-${name}`}>
      <h3>{t(`leaderboard.widget.${name}`)}</h3>
      {entries.length ? (
        <ol>
          {entries.map((e) => (
            <li key={e.user_id} className={e.user_id === meId ? "lb-me" : undefined}>
              <span className="lb-rank lb-rank-n">{e.rank}</span>
              <span className="lb-widget-name">{e.name}</span>
              <span className="lb-muted">{formatValue(name, e.value, t)}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="empty-state">{t("leaderboard.widgetEmpty")}</p>
      )}
      <p className="lb-mine">{t("leaderboard.yours", { value: formatValue(name, mine, t) })}</p>
    </section>
  );
}
