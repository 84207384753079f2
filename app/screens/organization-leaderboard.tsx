import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { BadgeImage } from "~/components/badge-image";
import { controlProps, ErrorList, FormErrors, useZodForm } from "~/components/form";
import { activityFormSchema, badgeSchema, levelSchema, resetFormSchema } from "~/models/forms/leaderboard";
import type { leaderboardTabLoader } from "./organization-leaderboard-data";

type Data = Awaited<ReturnType<ReturnType<typeof leaderboardTabLoader>>>;
type ActionData =
  | { intent: string; id: number | string | null; errors: Record<string, string[]>; result?: SubmissionResult<string[]> }
  | undefined;

/** conform's reply for one row's form (its intent and id), if the last post was that form's. */
const resultFor = (action: ActionData, intent: string, id: number | string | null = null) =>
  action && action.intent === intent && action.id === id ? action.result : undefined;

/** The leaderboard tab of one organization (docs/product.md §2): levels, activities, badges, board and resets. */
export function LeaderboardTab() {
  const { t } = useTranslation();
  const data = useLoaderData<Data>();
  const action = useActionData<ActionData>();
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
        {data.activities.map((a) => (
          <ActivityForm key={a.kind} activity={a} lastResult={resultFor(action, "activity", a.kind)} />
        ))}
      </div>

      <div className="panel">
        <h3>{t("leaderboard.admin.levels")}</h3>
        <p className="hint">{t("leaderboard.admin.levelsHint")}</p>
        {[...data.levels, null].map((l) => (
          <LevelRow key={l?.id ?? "new"} level={l} lastResult={resultFor(action, "level", l?.id ?? null)} />
        ))}
      </div>

      <BadgesPanel data={data} action={action} />
      <BoardPanel data={data} action={action} />
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
  return (
    <div className="panel">
      <h3>{t("leaderboard.admin.badges")}</h3>
      <p className="hint">{t("leaderboard.admin.badgesHint")}</p>
      <ul className="lb-badges" data-testid="admin-badges">
        {data.badges.map((b) => {
          const lastResult = resultFor(action, "badge", b.id);
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
                <button
                  type="submit"
                  className="danger"
                  data-testid={`delete-badge-${b.id}`}
                  aria-label={`${t("leaderboard.admin.delete")} ${b.name}`}
                >
                  {t("leaderboard.admin.delete")}
                </button>
              </Form>
              <details open={Boolean(lastResult)} style={{ flexBasis: "100%" }} data-testid={`edit-badge-${b.id}`}>
                <summary>{t("fixes.badges.edit", { name: b.name })}</summary>
                <BadgeForm data={data} badge={b} lastResult={lastResult} />
              </details>
            </li>
          );
        })}
      </ul>
      <BadgeForm data={data} badge={null} lastResult={resultFor(action, "badge", null)} />
    </div>
  );
}

function BadgeForm({ data, badge, lastResult }: { data: Data; badge: BadgeRow | null; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const key = badge?.id ?? "new";
  const [form, fields] = useZodForm({
    id: `badge-${key}`,
    schema: badgeSchema,
    lastResult,
    defaultValue: {
      name: badge?.name ?? "",
      description: badge?.description ?? "",
      rule: badge?.rule ?? data.rules[0],
      threshold: badge ? String(badge.threshold) : "",
      color: badge?.color ?? "#f59e0b",
    },
  });
  return (
    <Form method="post" className="subform lb-admin-grid" data-testid={`badge-form-${key}`} {...getFormProps(form)}>
      <FormErrors errors={form.errors} />
      <input type="hidden" name="intent" value="badge" />
      {badge ? <input type="hidden" name="id" value={badge.id} /> : null}
      <div className="field">
        <label htmlFor={`badge-name-${key}`}>{t("leaderboard.admin.name")}</label>
        <input {...controlProps(fields.name, `badge-name-${key}`)} key={fields.name.key} maxLength={80} required />
        <ErrorList id={`badge-name-${key}-error`} errors={fields.name.errors} />
      </div>
      <div className="field">
        <label htmlFor={`badge-description-${key}`}>{t("leaderboard.admin.description")}</label>
        <input {...controlProps(fields.description, `badge-description-${key}`)} key={fields.description.key} maxLength={300} />
        <ErrorList id={`badge-description-${key}-error`} errors={fields.description.errors} />
      </div>
      <div className="field">
        <label htmlFor={`badge-rule-${key}`}>{t("leaderboard.admin.rule")}</label>
        <select {...controlProps(fields.rule, `badge-rule-${key}`)} key={fields.rule.key}>
          {data.rules.map((r) => (
            <option key={r} value={r}>
              {t(`leaderboard.ruleName.${r}`)}
            </option>
          ))}
        </select>
        <ErrorList id={`badge-rule-${key}-error`} errors={fields.rule.errors} />
      </div>
      <div className="field">
        <label htmlFor={`badge-threshold-${key}`}>{t("leaderboard.admin.threshold")}</label>
        <input {...controlProps(fields.threshold, `badge-threshold-${key}`)} key={fields.threshold.key} type="number" min={1} required />
        <ErrorList id={`badge-threshold-${key}-error`} errors={fields.threshold.errors} />
      </div>
      <div className="field">
        <label htmlFor={`badge-color-${key}`}>{t("fixes.badges.imageColor")}</label>
        <input {...controlProps(fields.color, `badge-color-${key}`)} key={fields.color.key} type="color" />
        <ErrorList id={`badge-color-${key}-error`} errors={fields.color.errors} />
      </div>
      <button type="submit" className="primary" data-testid={`save-badge-${key}`}>
        {badge ? t("fixes.badges.save") : t("leaderboard.admin.addBadge")}
      </button>
    </Form>
  );
}

type ActivityRow = Data["activities"][number];

function ActivityForm({ activity: a, lastResult }: { activity: ActivityRow; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm({
    id: `activity-${a.kind}`,
    schema: activityFormSchema,
    lastResult,
    defaultValue: {
      kind: a.kind,
      points: String(a.points),
      dailyCap: a.dailyCap === null ? "" : String(a.dailyCap),
      enabled: a.enabled ? "on" : undefined,
    },
  });
  return (
    <Form method="post" className="lb-row-form" data-activity={a.kind} {...getFormProps(form)}>
      <input type="hidden" name="intent" value="activity" />
      <input type="hidden" name="kind" value={a.kind} />
      <span className="lb-kind">{t(`leaderboard.activity.${a.kind}`)}</span>
      <div className="field">
        <label htmlFor={`points-${a.kind}`}>{t("leaderboard.points")}</label>
        <input {...controlProps(fields.points, `points-${a.kind}`)} key={fields.points.key} type="number" min={0} max={100000} required />
        <ErrorList id={`points-${a.kind}-error`} errors={fields.points.errors} />
      </div>
      <div className="field">
        <label htmlFor={`cap-${a.kind}`}>{t("leaderboard.admin.dailyCap")}</label>
        <input
          {...controlProps(fields.dailyCap, `cap-${a.kind}`)}
          key={fields.dailyCap.key}
          type="number"
          min={1}
          max={1000}
          placeholder={t("leaderboard.admin.noCap")}
        />
        <ErrorList id={`cap-${a.kind}-error`} errors={fields.dailyCap.errors} />
      </div>
      <label className="field-check">
        <input type="checkbox" name="enabled" defaultChecked={fields.enabled.initialValue === "on"} key={fields.enabled.key} />{" "}
        {t("leaderboard.admin.enabled")}
      </label>
      <button type="submit">{t("leaderboard.admin.save")}</button>
    </Form>
  );
}

type LevelRowData = Data["levels"][number];

function LevelRow({ level: l, lastResult }: { level: LevelRowData | null; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation();
  const key = l?.id ?? "new";
  const [form, fields] = useZodForm({
    id: `level-${key}`,
    schema: levelSchema,
    lastResult,
    defaultValue: { name: l?.name ?? "", threshold: l ? String(l.threshold) : "", color: l?.color ?? "#6366f1" },
  });
  return (
    <div className="lb-row-form" data-level={l?.name ?? "new"}>
      {l ? <BadgeImage name={l.name} color={l.color} size={36} /> : <strong className="lb-kind">{t("leaderboard.admin.newLevel")}</strong>}
      <Form method="post" className="lb-row-form" style={{ border: 0, padding: 0 }} {...getFormProps(form)}>
        <input type="hidden" name="intent" value="level" />
        {l ? <input type="hidden" name="id" value={l.id} /> : null}
        <div className="field">
          <label htmlFor={`level-name-${key}`}>{t("leaderboard.admin.name")}</label>
          <input {...controlProps(fields.name, `level-name-${key}`)} key={fields.name.key} maxLength={60} required />
          <ErrorList id={`level-name-${key}-error`} errors={fields.name.errors} />
        </div>
        <div className="field">
          <label htmlFor={`level-threshold-${key}`}>{t("leaderboard.admin.threshold")}</label>
          <input {...controlProps(fields.threshold, `level-threshold-${key}`)} key={fields.threshold.key} type="number" min={0} required />
          <ErrorList id={`level-threshold-${key}-error`} errors={fields.threshold.errors} />
        </div>
        <div className="field">
          <label htmlFor={`level-color-${key}`}>{t("leaderboard.admin.color")}</label>
          <input {...controlProps(fields.color, `level-color-${key}`)} key={fields.color.key} type="color" />
          <ErrorList id={`level-color-${key}-error`} errors={fields.color.errors} />
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
}

function BoardPanel({ data, action }: { data: Data; action: ActionData }) {
  const { t } = useTranslation();
  const [reset, resetFields] = useZodForm({
    id: "reset",
    schema: resetFormSchema,
    lastResult: resultFor(action, "reset"),
    defaultValue: { period: "week" },
  });
  const zoneErrors = action?.intent === "time-zone" ? action.errors.timeZone : undefined;
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
        <select
          id="lb-time-zone"
          name="timeZone"
          defaultValue={data.timeZone}
          aria-describedby="lb-time-zone-hint"
          aria-invalid={zoneErrors?.length ? true : undefined}
        >
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
        <ErrorList errors={zoneErrors} />
      </Form>
      <Form method="post" className="search danger-zone" {...getFormProps(reset)}>
        <input type="hidden" name="intent" value="reset" />
        <label htmlFor="lb-reset">{t("leaderboard.admin.reset")}</label>
        <select {...controlProps(resetFields.period, "lb-reset")} key={resetFields.period.key}>
          {(["week", "month", "all"] as const).map((p) => (
            <option key={p} value={p}>
              {t(`leaderboard.period.${p}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="danger" data-testid="reset-board">
          {t("leaderboard.admin.resetButton")}
        </button>
        <ErrorList id="lb-reset-error" errors={resetFields.period.errors} />
      </Form>
      <p className="hint">{t("leaderboard.admin.resetHint")}</p>
    </div>
  );
}
