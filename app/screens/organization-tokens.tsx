import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { FormMessage, useZodForm } from "~/components/form";
import { tokenFormSchema } from "~/models/forms/tokens";
import { CAPABILITIES, CAPABILITY_GROUPS } from "~/utils/capabilities";
import { formatDate } from "~/utils/dates";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { TOKEN_LIST } from "~/models/forms/token-list";
import { listSearch } from "~/utils/list-query";
import type { tokensLoader } from "./organization-tokens.server";

/** The API tokens screen; its loader and action (server-only) are in organization-tokens.server.ts. */

type Loaded = ReturnType<ReturnType<typeof tokensLoader>> extends Promise<infer T> ? T : never;

export function TokensScreen() {
  const { t } = useTranslation();
  const data = useLoaderData<Loaded>();
  const { maxDays, defaultDays } = data;
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
      {data.page.total === 0 && !data.filtered ? <p className="empty-state">{t("tokens.empty")}</p> : <TokensList data={data} />}
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

/** The tokens list (issue 50): its controls, one page of tokens with a revoke button each, and its pager. */
function TokensList({ data }: { data: Loaded }) {
  const { t } = useTranslation();
  const pick = (name: string, values: readonly string[], label: (v: string) => string) => ({
    name,
    label: t(`platformLists.tokens.${name}`),
    any: t(`platformLists.tokens.any.${name}`),
    options: values.map((value) => ({ value, label: label(value) })),
  });
  const date = (iso: string) => formatDate(iso, { locale: data.locale });
  return (
    <>
      <ListControls
        id="tokens-list"
        label={t("platformLists.tokens.label")}
        searchLabel={t("tokens.name")}
        query={data.query}
        filters={[
          pick("state", ["active", "expired"], (v) => t(`platformLists.states.${v}`)),
          pick("capability", CAPABILITIES, (v) => `${t(`capabilities.${v}`)} (${v})`),
          pick("owner", ["organization", "person"], (v) => t(`platformLists.tokens.owners.${v}`)),
        ]}
        sorts={TOKEN_LIST.sorts.map((s) => ({ value: s, label: t(`platformLists.sorts.${s}`) }))}
        errors={data.errors}
        clear={data.list}
      />
      {data.tokens.length > 0 && (
        <div className="table-scroll">
          <table className="table" data-testid="tokens">
            <thead>
              <tr>
                <th>{t("tokens.name")}</th>
                <th>{t("tokens.capabilities")}</th>
                <th>{t("platformLists.tokens.owner")}</th>
                <th>{t("platformLists.sorts.created")}</th>
                <th>{t("tokens.expires")}</th>
                <th>{t("tokens.lastUsed")}</th>
                <th>
                  <span className="visually-hidden">{t("tokens.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.tokens.map((token) => (
                <tr key={token.id} data-token={token.name}>
                  <td>{token.name}</td>
                  <td>{token.capabilities.join(", ")}</td>
                  <td>{token.madeBy ?? t("platformLists.tokens.owners.organization")}</td>
                  <td>{date(token.createdAt)}</td>
                  <td>
                    {date(token.expiresAt)}
                    {token.expired ? <span className="badge">{t("platformLists.states.expired")}</span> : null}
                  </td>
                  <td>{token.lastUsedAt ? date(token.lastUsedAt) : t("tokens.never")}</td>
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
        </div>
      )}
      <ListPager
        {...data.page}
        shown={data.tokens.length}
        locale={data.locale}
        link={(n) => `${data.list}${listSearch(data.query, TOKEN_LIST, { page: n })}`}
        label={t("lists.pages")}
      />
    </>
  );
}
