import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { BadgeImage } from "~/components/badge-image";
import { ErrorList } from "~/components/form";
import type { leaderboardTabLoader } from "./organization-leaderboard-data";

type Data = Awaited<ReturnType<ReturnType<typeof leaderboardTabLoader>>>;
type ActionData = { intent: string; id: number | string | null; errors: Record<string, string[]> } | undefined;

/** The leaderboard tab of one organization (docs/product.md §2): levels, activities, badges, board and resets. */
export function LeaderboardTab() {
  const { t } = useTranslation();
  const data = useLoaderData<Data>();
  const action = useActionData<ActionData>();
  const errorsFor = (intent: string, id: number | string | null = null) => (action && action.intent === intent && action.id === id ? action.errors : {});
  return (
    <section className="lb-admin" data-testid="leaderboard-admin">
      <h2>{t("leaderboard.admin.title")}</h2>
      {data.saved ? (
        <p className="flash" role="status" data-testid="saved">
          {t("leaderboard.admin.saved")}
        </p>
      ) : null}
      {action?.errors._ ? <ErrorList errors={action.errors._} /> : null}

      <div className="panel">
        <h3>{t("leaderboard.admin.activities")}</h3>
        <p className="hint">{t("leaderboard.admin.activitiesHint")}</p>
        {data.activities.map((a) => {
          const errors = errorsFor("activity", a.kind);
          return (
            <Form method="post" className="lb-row-form" key={a.kind} data-activity={a.kind}>
              <input type="hidden" name="intent" value="activity" />
              <input type="hidden" name="kind" value={a.kind} />
              <span className="lb-kind">{t(`leaderboard.activity.${a.kind}`)}</span>
              <div className="field">
                <label htmlFor={`points-${a.kind}`}>{t("leaderboard.points")}</label>
                <input id={`points-${a.kind}`} name="points" type="number" min={0} max={100000} defaultValue={a.points} required />
                <ErrorList errors={errors.points} />
              </div>
              <div className="field">
                <label htmlFor={`cap-${a.kind}`}>{t("leaderboard.admin.dailyCap")}</label>
                <input id={`cap-${a.kind}`} name="dailyCap" type="number" min={1} max={1000} defaultValue={a.dailyCap ?? ""} placeholder={t("leaderboard.admin.noCap")} />
                <ErrorList errors={errors.dailyCap} />
              </div>
              <label className="field-check">
                <input type="checkbox" name="enabled" defaultChecked={a.enabled} /> {t("leaderboard.admin.enabled")}
              </label>
              <button type="submit">{t("leaderboard.admin.save")}</button>
            </Form>
          );
        })}
      </div>

      <div className="panel">
        <h3>{t("leaderboard.admin.levels")}</h3>
        <p className="hint">{t("leaderboard.admin.levelsHint")}</p>
        {[...data.levels, null].map((l) => {
          const errors = errorsFor("level", l?.id ?? null);
          return (
            <div className="lb-row-form" key={l?.id ?? "new"} data-level={l?.name ?? "new"}>
              {l ? <BadgeImage name={l.name} color={l.color} size={36} /> : <strong className="lb-kind">{t("leaderboard.admin.newLevel")}</strong>}
              <Form method="post" className="lb-row-form" style={{ border: 0, padding: 0 }}>
                <input type="hidden" name="intent" value="level" />
                {l ? <input type="hidden" name="id" value={l.id} /> : null}
                <div className="field">
                  <label htmlFor={`level-name-${l?.id ?? "new"}`}>{t("leaderboard.admin.name")}</label>
                  <input id={`level-name-${l?.id ?? "new"}`} name="name" defaultValue={l?.name ?? ""} maxLength={60} required />
                  <ErrorList errors={errors.name} />
                </div>
                <div className="field">
                  <label htmlFor={`level-threshold-${l?.id ?? "new"}`}>{t("leaderboard.admin.threshold")}</label>
                  <input id={`level-threshold-${l?.id ?? "new"}`} name="threshold" type="number" min={0} defaultValue={l?.threshold ?? ""} required />
                  <ErrorList errors={errors.threshold} />
                </div>
                <div className="field">
                  <label htmlFor={`level-color-${l?.id ?? "new"}`}>{t("leaderboard.admin.color")}</label>
                  <input id={`level-color-${l?.id ?? "new"}`} name="color" type="color" defaultValue={l?.color ?? "#6366f1"} />
                  <ErrorList errors={errors.color} />
                </div>
                <button type="submit" className={l ? undefined : "primary"}>
                  {l ? t("leaderboard.admin.save") : t("leaderboard.admin.addLevel")}
                </button>
              </Form>
              {l ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="delete-level" />
                  <input type="hidden" name="id" value={l.id} />
                  <button type="submit" className="danger">
                    {t("leaderboard.admin.delete")}
                  </button>
                </Form>
              ) : null}
            </div>
          );
        })}
      </div>

      <BadgesPanel data={data} action={action} />
      <BoardPanel data={data} />
    </section>
  );
}

type BadgeRow = Data["badges"][number];

/**
 * Badges: each one the admins made can be edited (name, description, colour of its image, rule,
 * threshold) in a disclosure that opens without JavaScript, or deleted; below them, a form adds one.
 */
function BadgesPanel({ data, action }: { data: Data; action: ActionData }) {
  const { t } = useTranslation();
  const failedFor = (id: number | null) => (action && action.intent === "badge" && action.id === id ? action.errors : null);
  return (
    <div className="panel">
      <h3>{t("leaderboard.admin.badges")}</h3>
      <p className="hint">{t("leaderboard.admin.badgesHint")}</p>
      <ul className="lb-badges" data-testid="admin-badges">
        {data.badges.map((b) => {
          const errors = failedFor(b.id);
          return (
            <li key={b.id} data-badge={b.name} style={{ flexWrap: "wrap", alignSelf: "start", alignContent: "flex-start" }}>
              <BadgeImage name={b.name} color={b.color} size={40} />
              <div>
                <strong>{b.name}</strong>
                <span className="lb-muted">{t(`leaderboard.rule.${b.rule}`, { count: b.threshold })}</span>
              </div>
              <Form method="post" style={{ marginLeft: "auto" }}>
                <input type="hidden" name="intent" value="delete-badge" />
                <input type="hidden" name="id" value={b.id} />
                <button type="submit" className="danger" data-testid={`delete-badge-${b.id}`} aria-label={`${t("leaderboard.admin.delete")} ${b.name}`}>
                  {t("leaderboard.admin.delete")}
                </button>
              </Form>
              <details open={Boolean(errors)} style={{ flexBasis: "100%" }} data-testid={`edit-badge-${b.id}`}>
                <summary>{t("fixes.badges.edit", { name: b.name })}</summary>
                <BadgeForm data={data} badge={b} errors={errors ?? {}} />
              </details>
            </li>
          );
        })}
      </ul>
      <BadgeForm data={data} badge={null} errors={failedFor(null) ?? {}} />
    </div>
  );
}

function BadgeForm({ data, badge, errors }: { data: Data; badge: BadgeRow | null; errors: Record<string, string[]> }) {
  const { t } = useTranslation();
  const key = badge?.id ?? "new";
  return (
    <Form method="post" className="subform lb-admin-grid" data-testid={`badge-form-${key}`}>
      <input type="hidden" name="intent" value="badge" />
      {badge ? <input type="hidden" name="id" value={badge.id} /> : null}
      <div className="field">
        <label htmlFor={`badge-name-${key}`}>{t("leaderboard.admin.name")}</label>
        <input id={`badge-name-${key}`} name="name" maxLength={80} defaultValue={badge?.name ?? ""} required />
        <ErrorList errors={errors.name} />
      </div>
      <div className="field">
        <label htmlFor={`badge-description-${key}`}>{t("leaderboard.admin.description")}</label>
        <input id={`badge-description-${key}`} name="description" maxLength={300} defaultValue={badge?.description ?? ""} />
        <ErrorList errors={errors.description} />
      </div>
      <div className="field">
        <label htmlFor={`badge-rule-${key}`}>{t("leaderboard.admin.rule")}</label>
        <select id={`badge-rule-${key}`} name="rule" defaultValue={badge?.rule}>
          {data.rules.map((r) => (
            <option key={r} value={r}>
              {t(`leaderboard.ruleName.${r}`)}
            </option>
          ))}
        </select>
        <ErrorList errors={errors.rule} />
      </div>
      <div className="field">
        <label htmlFor={`badge-threshold-${key}`}>{t("leaderboard.admin.threshold")}</label>
        <input id={`badge-threshold-${key}`} name="threshold" type="number" min={1} defaultValue={badge?.threshold ?? ""} required />
        <ErrorList errors={errors.threshold} />
      </div>
      <div className="field">
        <label htmlFor={`badge-color-${key}`}>{t("fixes.badges.imageColor")}</label>
        <input id={`badge-color-${key}`} name="color" type="color" defaultValue={badge?.color ?? "#f59e0b"} />
        <ErrorList errors={errors.color} />
      </div>
      <button type="submit" className="primary" data-testid={`save-badge-${key}`}>
        {badge ? t("fixes.badges.save") : t("leaderboard.admin.addBadge")}
      </button>
    </Form>
  );
}

function BoardPanel({ data }: { data: Data }) {
  const { t } = useTranslation();
  return (
    <div className="panel">
      <h3>{t("leaderboard.admin.board")}</h3>
      <p className="hint">{t("leaderboard.admin.boardHint", { count: data.learners })}</p>
      {data.top.length ? (
        <table className="table lb-board" data-testid="admin-board">
          <tbody>
            {data.top.map((e) => (
              <tr key={e.user_id}>
                <td>
                  <span className={`lb-rank lb-rank-${e.rank <= 3 ? e.rank : "n"}`}>{e.rank}</span>
                </td>
                <td>{e.name}</td>
                <td className="num">{e.points}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="empty-state">{t("leaderboard.empty")}</p>
      )}
      <Form method="post" className="search">
        <input type="hidden" name="intent" value="time-zone" />
        <label htmlFor="lb-time-zone">{t("leaderboard.admin.timeZone")}</label>
        <select id="lb-time-zone" name="timeZone" defaultValue={data.timeZone} aria-describedby="lb-time-zone-hint">
          {data.timeZones.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        <button type="submit">{t("leaderboard.admin.save")}</button>
        <p className="hint" id="lb-time-zone-hint">
          {t("calendar.timeZoneHint")}
        </p>
      </Form>
      <Form method="post" className="search danger-zone">
        <input type="hidden" name="intent" value="reset" />
        <label htmlFor="lb-reset">{t("leaderboard.admin.reset")}</label>
        <select id="lb-reset" name="period">
          {(["week", "month", "all"] as const).map((p) => (
            <option key={p} value={p}>
              {t(`leaderboard.period.${p}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="danger" data-testid="reset-board">
          {t("leaderboard.admin.resetButton")}
        </button>
      </Form>
      <p className="hint">{t("leaderboard.admin.resetHint")}</p>
    </div>
  );
}
