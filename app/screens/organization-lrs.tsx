import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { FormMessage, useZodForm } from "~/components/form";
import { xapiCredentialFormSchema, XAPI_FORM_SCOPES, XAPI_FORM_VERSIONS } from "~/models/forms/xapi-credentials";
import { formatDate } from "~/utils/dates";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { LRS_CREDENTIAL_LIST } from "~/models/forms/lrs-credential-list";
import { listSearch } from "~/utils/list-query";
import type { lrsLoader } from "./organization-lrs.server";

/** The LRS screen: its address and credentials; the loader and action (server-only) are in organization-lrs.server.ts. */

type Loaded = ReturnType<ReturnType<typeof lrsLoader>> extends Promise<infer T> ? T : never;

export function LrsScreen() {
  const { t } = useTranslation();
  const data = useLoaderData<Loaded>();
  const { endpoint, base, maxDays, defaultDays } = data;
  const result = useActionData<{ made: { key: string; secret: string } | null; result: SubmissionResult<string[]> }>();
  const [form, fields] = useZodForm({
    schema: xapiCredentialFormSchema(maxDays, defaultDays),
    lastResult: result?.result,
    defaultValue: { days: String(defaultDays), scope: "all", version: "2.0.0" },
  });
  const errors = [form.errors, fields.name.errors, fields.scope.errors, fields.days.errors].flatMap((e) => e ?? []);
  const initial = (value: unknown, fallback: string) => (typeof value === "string" ? value : fallback);
  return (
    <section>
      <div className="toolbar">
        <h2>{t("lrs.title")}</h2>
        <Link className="button" to={`${base}/lrs/statements`} data-testid="lrs-statements-link">
          {t("lrs.statements.open")}
        </Link>
      </div>
      <p className="hint">{t("lrs.intro")}</p>
      <p>
        {t("lrs.endpoint")} <code data-testid="lrs-endpoint">{endpoint}</code>
      </p>
      {result?.made ? (
        <div className="panel" role="status" data-testid="new-credential">
          <p>{t("lrs.credentials.created")}</p>
          <dl>
            <dt>{t("lrs.credentials.key")}</dt>
            <dd>
              <code className="secret">{result.made.key}</code>
            </dd>
            <dt>{t("lrs.credentials.secret")}</dt>
            <dd>
              <code className="secret">{result.made.secret}</code>
            </dd>
          </dl>
        </div>
      ) : null}
      <h3>{t("lrs.credentials.title")}</h3>
      {data.page.total === 0 && !data.filtered ? (
        <p className="empty-state">{t("lrs.credentials.empty")}</p>
      ) : (
        <CredentialsList data={data} />
      )}
      <Form method="post" className="panel" {...getFormProps(form)}>
        <h3>{t("lrs.credentials.create")}</h3>
        <FormMessage>{errors.length ? errors.map((e) => t(e, { max: maxDays })).join(" ") : null}</FormMessage>
        <div className="field">
          <label htmlFor="lrs-name">{t("lrs.credentials.name")}</label>
          <input
            id="lrs-name"
            name={fields.name.name}
            defaultValue={initial(fields.name.initialValue, "")}
            key={fields.name.key}
            required
            maxLength={100}
            aria-invalid={fields.name.errors ? true : undefined}
          />
        </div>
        <fieldset className="recertification-fieldset">
          <legend>{t("lrs.credentials.scope")}</legend>
          {XAPI_FORM_SCOPES.map((scope) => (
            <label key={scope} className="assign-radio">
              <input
                type="radio"
                name={fields.scope.name}
                value={scope}
                defaultChecked={initial(fields.scope.initialValue, "all") === scope}
                key={fields.scope.key}
              />{" "}
              {t(`lrs.scopes.${scope}`)} <small className="hint">{t(`lrs.scopeHints.${scope}`)}</small>
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="lrs-version">{t("lrs.credentials.version")}</label>
          <select
            id="lrs-version"
            name={fields.version.name}
            defaultValue={initial(fields.version.initialValue, "2.0.0")}
            key={fields.version.key}
          >
            {XAPI_FORM_VERSIONS.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
          <p className="hint">{t("lrs.credentials.versionHint")}</p>
        </div>
        <div className="field">
          <label htmlFor="lrs-days">{t("lrs.credentials.days")}</label>
          <input
            id="lrs-days"
            name={fields.days.name}
            type="number"
            min={1}
            max={maxDays}
            defaultValue={initial(fields.days.initialValue, String(defaultDays))}
            key={fields.days.key}
            aria-invalid={fields.days.errors ? true : undefined}
          />
        </div>
        <button type="submit" name="intent" value="create" className="primary">
          {t("lrs.credentials.create")}
        </button>
      </Form>
    </section>
  );
}

/** The credentials list (issue 50): its controls, one page of credentials with a revoke button on the live ones, its pager. */
function CredentialsList({ data }: { data: Loaded }) {
  const { t } = useTranslation();
  const pick = (name: string, values: readonly string[], label: (v: string) => string) => ({
    name,
    label: t(name === "state" ? "platformLists.state" : `lrs.credentials.${name}`),
    any: t(`platformLists.lrs.any.${name}`),
    options: values.map((value) => ({ value, label: label(value) })),
  });
  const date = (iso: string) => formatDate(iso, { locale: data.locale });
  return (
    <>
      <ListControls
        id="lrs-list"
        label={t("platformLists.lrs.label")}
        searchLabel={t("platformLists.lrs.search")}
        query={data.query}
        filters={[
          pick("state", ["active", "revoked", "expired"], (v) => t(`platformLists.states.${v}`)),
          pick("scope", XAPI_FORM_SCOPES, (v) => t(`lrs.scopes.${v}`)),
          pick("version", XAPI_FORM_VERSIONS, (v) => v),
        ]}
        sorts={LRS_CREDENTIAL_LIST.sorts.map((s) => ({ value: s, label: t(`platformLists.sorts.${s}`) }))}
        errors={data.errors}
        clear={data.list}
      />
      {data.credentials.length > 0 && (
        <div className="table-scroll">
          <table className="table" data-testid="lrs-credentials">
            <thead>
              <tr>
                <th>{t("lrs.credentials.name")}</th>
                <th>{t("lrs.credentials.key")}</th>
                <th>{t("lrs.credentials.scope")}</th>
                <th>{t("lrs.credentials.version")}</th>
                <th>{t("platformLists.sorts.created")}</th>
                <th>{t("lrs.credentials.expires")}</th>
                <th>{t("lrs.credentials.lastUsed")}</th>
                <th>
                  <span className="visually-hidden">{t("lrs.credentials.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.credentials.map((c) => (
                <tr key={c.id} data-credential={c.name}>
                  <td>{c.name}</td>
                  <td>
                    <code>{c.key}</code>
                  </td>
                  <td>{t(`lrs.scopes.${c.scope}`)}</td>
                  <td>{c.version}</td>
                  <td>{date(c.createdAt)}</td>
                  <td>
                    {c.revokedAt ? (
                      <span className="badge">{t("lrs.credentials.revoked")}</span>
                    ) : (
                      <>
                        {date(c.expiresAt)}
                        {c.expired ? <span className="badge">{t("platformLists.states.expired")}</span> : null}
                      </>
                    )}
                  </td>
                  <td>{c.lastUsedAt ? date(c.lastUsedAt) : t("lrs.credentials.never")}</td>
                  <td>
                    {c.revokedAt || c.expired ? null : (
                      <Form method="post">
                        <input type="hidden" name="id" value={c.id} />
                        <button type="submit" name="intent" value="revoke" className="danger">
                          {t("lrs.credentials.revoke")}
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ListPager
        {...data.page}
        shown={data.credentials.length}
        locale={data.locale}
        link={(n) => `${data.list}${listSearch(data.query, LRS_CREDENTIAL_LIST, { page: n })}`}
        label={t("lists.pages")}
      />
    </>
  );
}
