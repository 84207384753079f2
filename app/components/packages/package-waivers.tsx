import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { WaiverRow } from "~/models/packages/waiver-list.server";

/**
 * A cmi5 lesson's learners on its package page, for waiving a unit (cmi5 §9.3.7): each learner's open attempt, the
 * units still to meet, a reason, and the waivers made so far. Plain forms: a search by name or e-mail (GET), a
 * waiver (POST, `intent=waive`), with or without JavaScript.
 */
export function PackageWaivers({
  rows,
  search,
  result,
}: {
  rows: WaiverRow[];
  search: string;
  result?: { waived?: string; error?: string };
}) {
  const { t } = useTranslation();
  return (
    <section className="panel package-waivers" data-testid="package-waivers">
      <h3>{t("packages.waivers.title")}</h3>
      <p className="hint">{t("packages.waivers.help")}</p>
      <Form method="get" className="inline-form" role="search">
        <label htmlFor="waiver-search">{t("packages.waivers.search")}</label>{" "}
        <input id="waiver-search" name="q" type="search" defaultValue={search} maxLength={100} />{" "}
        <button type="submit">{t("packages.waivers.find")}</button>
      </Form>
      {result?.waived ? (
        <p className="flash" role="status" data-testid="waiver-done">
          {t("packages.waivers.done", { unit: result.waived })}
        </p>
      ) : null}
      {result?.error ? (
        <p className="field-errors" role="alert" data-testid="waiver-error">
          {result.error}
        </p>
      ) : null}
      {rows.length === 0 ? (
        <p data-testid="waiver-none">{t("packages.waivers.none")}</p>
      ) : (
        <ul className="waiver-list">
          {rows.map((row) => (
            <li key={row.registration} data-testid="waiver-learner">
              <strong>{row.name || row.email}</strong> <span className="hint">{row.email}</span>
              {row.waived.length ? (
                <ul className="hint">
                  {row.waived.map((w) => (
                    <li key={w.title}>{t("packages.waivers.waived", { unit: w.title, reason: w.reason })}</li>
                  ))}
                </ul>
              ) : null}
              {row.open.length ? (
                <Form method="post" className="waiver-form">
                  <input type="hidden" name="intent" value="waive" />
                  <input type="hidden" name="registration" value={row.registration} />
                  <label>
                    {t("packages.waivers.unit")}{" "}
                    <select name="au" required>
                      {row.open.map((u) => (
                        <option key={u.id} value={u.id}>
                          {u.title}
                        </option>
                      ))}
                    </select>
                  </label>{" "}
                  <label>
                    {t("packages.waivers.reason")} <input name="reason" required maxLength={200} />
                  </label>{" "}
                  <button type="submit" data-testid="waive">
                    {t("packages.waivers.waive")}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
