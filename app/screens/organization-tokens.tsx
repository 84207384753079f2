import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { FormMessage, useZodForm } from "~/components/form";
import { tokenFormSchema } from "~/models/forms/tokens";
import { CAPABILITY_GROUPS } from "~/utils/capabilities";
import { formatDate } from "~/utils/dates";
import type { tokensLoader } from "./organization-tokens.server";

/** The API tokens screen; its loader and action (server-only) are in organization-tokens.server.ts. */

export function TokensScreen() {
  const { t } = useTranslation();
  const { tokens, maxDays, defaultDays } =
    useLoaderData<ReturnType<ReturnType<typeof tokensLoader>> extends Promise<infer T> ? T : never>();
  const result = useActionData<{ token: string | null; result: SubmissionResult<string[]> }>();
  const [form, fields] = useZodForm({
    schema: tokenFormSchema(maxDays, defaultDays),
    lastResult: result?.result,
    defaultValue: { days: String(defaultDays) },
  });
  // One message for the form, as before: its own errors and each field's, in the order of the form.
  const errors = [form.errors, fields.name.errors, fields.capabilities.errors, fields.days.errors].flatMap((e) => e ?? []);
  const chosen = ([] as unknown[]).concat(fields.capabilities.initialValue ?? []);
  return (
    <section>
      <h2>{t("tokens.title")}</h2>
      <p className="hint">{t("tokens.intro")}</p>
      {result?.token ? (
        <div className="panel" role="status">
          <p>{t("tokens.created")}</p>
          <code className="secret" data-testid="new-token">
            {result.token}
          </code>
        </div>
      ) : null}
      {tokens.length === 0 ? (
        <p className="empty-state">{t("tokens.empty")}</p>
      ) : (
        <table className="table" data-testid="tokens">
          <thead>
            <tr>
              <th>{t("tokens.name")}</th>
              <th>{t("tokens.capabilities")}</th>
              <th>{t("tokens.expires")}</th>
              <th>{t("tokens.lastUsed")}</th>
              <th>
                <span className="visually-hidden">{t("tokens.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>{token.capabilities.join(", ")}</td>
                <td>{formatDate(token.expires_at)}</td>
                <td>{token.last_used_at ? formatDate(token.last_used_at) : t("tokens.never")}</td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="id" value={token.id} />
                    <button type="submit" name="intent" value="revoke" className="danger">
                      {t("tokens.revoke")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Form method="post" className="panel" {...getFormProps(form)}>
        <h3>{t("tokens.create")}</h3>
        <FormMessage>{errors.length ? errors.map((e) => t(e, { capabilities: "", max: maxDays })).join(" ") : null}</FormMessage>
        <div className="field">
          <label htmlFor="token-name">{t("tokens.name")}</label>
          <input
            id="token-name"
            name={fields.name.name}
            defaultValue={typeof fields.name.initialValue === "string" ? fields.name.initialValue : ""}
            key={fields.name.key}
            required
            maxLength={100}
            aria-invalid={fields.name.errors ? true : undefined}
          />
        </div>
        <fieldset className="capabilities">
          <legend>{t("tokens.capabilities")}</legend>
          {CAPABILITY_GROUPS.map((group) => (
            <div key={group.id}>
              <strong>{t(`capabilityGroups.${group.id}`)}</strong>
              {group.capabilities.map((c) => (
                <label key={c} className="check">
                  <input
                    type="checkbox"
                    name={fields.capabilities.name}
                    value={c}
                    defaultChecked={chosen.includes(c)}
                    key={fields.capabilities.key}
                  />{" "}
                  {t(`capabilities.${c}`)} <code>{c}</code>
                </label>
              ))}
            </div>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="token-days">{t("tokens.days")}</label>
          <input
            id="token-days"
            name={fields.days.name}
            type="number"
            min={1}
            max={maxDays}
            defaultValue={typeof fields.days.initialValue === "string" ? fields.days.initialValue : defaultDays}
            key={fields.days.key}
            aria-invalid={fields.days.errors ? true : undefined}
          />
        </div>
        <button type="submit" name="intent" value="create" className="primary">
          {t("tokens.create")}
        </button>
      </Form>
    </section>
  );
}
