import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ErrorList } from "~/components/form";
import { EmptyState } from "~/components/empty-state";
import { formatDate } from "~/utils/dates";
import type { statementLoader, statementsLoader } from "./lrs-statements.server";

/** The LRS's statements and one statement's JSON; loaders (server-only) in lrs-statements.server.ts. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loaded<F extends (...args: any[]) => (...args: any[]) => unknown> = ReturnType<ReturnType<F>> extends Promise<infer T> ? T : never;

/** The filters as an address's query (the page's own `before` aside). */
function search(query: Record<string, unknown>, before?: number | null) {
  const params = new URLSearchParams();
  for (const key of ["actor", "verb", "activity", "from", "until"]) if (query[key]) params.set(key, String(query[key]));
  if (before) params.set("before", String(before));
  const text = params.toString();
  return text ? `?${text}` : "";
}

export function StatementsScreen() {
  const { t } = useTranslation();
  const { base, query, errors, verbs, statements, next, timeZone } = useLoaderData<Loaded<typeof statementsLoader>>();
  const value = (key: keyof typeof query) => (query[key] === undefined ? "" : String(query[key]));
  return (
    <section className="lrs-statements">
      <p>
        <Link to={`${base}/lrs`}>{t("lrs.statements.back")}</Link>
      </p>
      <div className="toolbar">
        <h2>{t("lrs.statements.title")}</h2>
        <a className="button" href={`${base}/lrs/statements/export${search(query)}`} download data-testid="lrs-csv">
          {t("lrs.statements.csv")}
        </a>
      </div>
      <Form method="get" className="panel filters" data-testid="lrs-filters">
        <div className="field">
          <label htmlFor="lrs-actor">{t("lrs.statements.actor")}</label>
          <input id="lrs-actor" name="actor" defaultValue={value("actor")} maxLength={500} placeholder="name@example.com" />
        </div>
        <div className="field">
          <label htmlFor="lrs-verb">{t("lrs.statements.verb")}</label>
          <select id="lrs-verb" name="verb" defaultValue={value("verb")}>
            <option value="">{t("lrs.statements.anyVerb")}</option>
            {verbs.map((v) => (
              <option key={v} value={v}>
                {v.replace(/^https?:\/\/(www\.)?/, "")}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="lrs-activity">{t("lrs.statements.activity")}</label>
          <input id="lrs-activity" name="activity" type="url" defaultValue={value("activity")} maxLength={2000} />
        </div>
        <div className="field">
          <label htmlFor="lrs-from">{t("lrs.statements.from")}</label>
          <input id="lrs-from" name="from" type="date" defaultValue={value("from")} />
        </div>
        <div className="field">
          <label htmlFor="lrs-until">{t("lrs.statements.until")}</label>
          <input id="lrs-until" name="until" type="date" defaultValue={value("until")} />
        </div>
        <button type="submit" className="primary">
          {t("lrs.statements.filter")}
        </button>
      </Form>
      {errors ? <ErrorList errors={errors.map((e) => t(e))} /> : null}
      {statements.length === 0 ? (
        <EmptyState title={t("lrs.statements.empty")} body={t("lrs.statements.emptyBody")} testId="lrs-statements-empty" compact />
      ) : (
        <table className="table" data-testid="lrs-statements">
          <thead>
            <tr>
              <th>{t("lrs.statements.stored")}</th>
              <th>{t("lrs.statements.actor")}</th>
              <th>{t("lrs.statements.verb")}</th>
              <th>{t("lrs.statements.object")}</th>
              <th>{t("lrs.statements.result")}</th>
            </tr>
          </thead>
          <tbody>
            {statements.map((s) => (
              <tr key={s.id} className={s.voided ? "voided" : undefined}>
                <td>
                  <Link to={`${base}/lrs/statements/${s.id}`}>{formatDate(s.stored, { timeStyle: "short", timeZone })}</Link>
                  {s.voided ? <span className="badge">{t("lrs.statements.voided")}</span> : null}
                </td>
                <td>{s.actor}</td>
                <td>{s.verb}</td>
                <td>{s.object}</td>
                <td>
                  {[
                    s.score === null ? null : `${Math.round(s.score * 100)} %`,
                    s.success === null ? null : t(s.success ? "lrs.statements.passed" : "lrs.statements.failed"),
                    s.completion ? t("lrs.statements.completed") : null,
                  ]
                    .filter(Boolean)
                    .join(", ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {next ? (
        <nav className="pager" aria-label={t("lrs.statements.pages")}>
          <Link to={`${base}/lrs/statements${search(query, next)}`} rel="next">
            {t("lrs.statements.older")}
          </Link>
        </nav>
      ) : null}
    </section>
  );
}

export function StatementScreen() {
  const { t } = useTranslation();
  const { base, id, voided, json } = useLoaderData<Loaded<typeof statementLoader>>();
  return (
    <section>
      <p>
        <Link to={`${base}/lrs/statements`}>{t("lrs.statements.back")}</Link>
      </p>
      <h2>{t("lrs.statement.title")}</h2>
      <p>
        <code>{id}</code> {voided ? <span className="badge">{t("lrs.statements.voided")}</span> : null}
      </p>
      <pre className="statement-json" data-testid="lrs-statement-json">
        {json}
      </pre>
    </section>
  );
}
