import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/utils/translate";
import { ssoDriverSchema } from "~/models/forms/sso";
import { controlProps, ErrorList, FormErrors, useZodForm } from "./form";

export interface DriverFormValues {
  kind: "oidc" | "oauth2";
  slug: string;
  label: string;
  enabled: string;
  issuer: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  subjectClaim: string;
  emailClaim: string;
  firstNameClaim: string;
  lastNameClaim: string;
  createUsers: string;
  defaultRole: "learner" | "admin";
  defaultGroupIds: string[];
  managedExternally: string;
  linkByEmail: string;
}

export const NEW_DRIVER: DriverFormValues = {
  kind: "oidc",
  slug: "",
  label: "",
  enabled: "on",
  issuer: "",
  authorizationUrl: "",
  tokenUrl: "",
  userinfoUrl: "",
  clientId: "",
  clientSecret: "",
  scopes: "openid email profile",
  subjectClaim: "sub",
  emailClaim: "email",
  firstNameClaim: "given_name",
  lastNameClaim: "family_name",
  createUsers: "on",
  defaultRole: "learner",
  defaultGroupIds: [],
  managedExternally: "on",
  linkByEmail: "",
};

/**
 * An identity provider's settings. Without JavaScript both kinds' addresses show (each marked); with it,
 * only the chosen kind's. The secret field is write-only: it is never filled in from the server.
 */
export function SsoDriverForm({
  values,
  lastResult,
  formErrors,
  groups,
  hasSecret,
  submitLabel,
  testId,
}: {
  values: DriverFormValues;
  /** The server's reply to this form (the secret is never in it). */
  lastResult?: SubmissionResult<string[]>;
  /** A message for the whole form from elsewhere on the page (deleting the last provider). */
  formErrors?: string[];
  groups: { id: number; name: string }[];
  hasSecret: boolean;
  submitLabel: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm({ id: testId, schema: ssoDriverSchema, lastResult, defaultValue: { ...values } });
  const field = (name: keyof DriverFormValues) => fields[name];
  const initial = (name: keyof DriverFormValues) => field(name).initialValue;
  const [kind, setKind] = useState(String(initial("kind") ?? values.kind));
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const text = (
    name: keyof DriverFormValues,
    label: string,
    { type = "text", hint, required = false }: { type?: string; hint?: string; required?: boolean } = {},
  ) => {
    const props = controlProps(field(name), `sso-${name}`);
    return (
      <div className="field">
        <label htmlFor={`sso-${name}`}>{label}</label>
        <input
          {...props}
          key={field(name).key}
          type={type}
          defaultValue={type === "password" ? "" : props.defaultValue}
          required={required}
          autoComplete={type === "password" ? "new-password" : "off"}
        />
        {hint ? <p className="field-hint">{hint}</p> : null}
        <ErrorList id={`sso-${name}-error`} errors={field(name).errors} />
      </div>
    );
  };
  const check = (name: keyof DriverFormValues, label: string, hint?: string) => (
    <div className="field field-check">
      <label>
        <input type="checkbox" name={name} defaultChecked={initial(name) === "on"} key={field(name).key} /> {label}
      </label>
      {hint ? <p className="field-hint">{hint}</p> : null}
      <ErrorList errors={field(name).errors} />
    </div>
  );
  const groupIds = [initial("defaultGroupIds") ?? []].flat().map(String);
  return (
    <Form method="post" className="sso-driver-form" data-testid={testId} {...getFormProps(form)}>
      <FormErrors errors={[...(formErrors ?? []), ...(form.errors ?? [])]} />
      <div className="sso-grid">
        <div className="field">
          <label htmlFor="sso-kind">{t("sso.kind")}</label>
          <select
            {...controlProps(fields.kind, "sso-kind")}
            key={fields.kind.key}
            onChange={(e) => setKind(e.currentTarget.value as DriverFormValues["kind"])}
          >
            <option value="oidc">{t("sso.kinds.oidc")}</option>
            <option value="oauth2">{t("sso.kinds.oauth2")}</option>
          </select>
          <ErrorList id="sso-kind-error" errors={fields.kind.errors} />
        </div>
        {text("label", t("sso.label"), { hint: t("sso.labelHint"), required: true })}
        {text("slug", t("sso.slug"), { hint: t("sso.slugHint"), required: true })}
        {text("clientId", t("sso.clientId"), { required: true })}
        {text("clientSecret", t("sso.clientSecret"), {
          type: "password",
          hint: hasSecret ? t("sso.clientSecretKept") : t("sso.clientSecretHint"),
          required: !hasSecret,
        })}
        {text("scopes", t("sso.scopes"))}
      </div>
      <fieldset className="sso-fieldset" hidden={hydrated && kind !== "oidc"}>
        <legend>{t("sso.kinds.oidc")}</legend>
        {text("issuer", t("sso.issuer"), { type: "url", hint: t("sso.issuerHint") })}
      </fieldset>
      <fieldset className="sso-fieldset" hidden={hydrated && kind !== "oauth2"}>
        <legend>{t("sso.kinds.oauth2")}</legend>
        <p className="field-hint">{t("sso.oauth2Hint")}</p>
        <div className="sso-grid">
          {text("authorizationUrl", t("sso.authorizationUrl"), { type: "url" })}
          {text("tokenUrl", t("sso.tokenUrl"), { type: "url" })}
          {text("userinfoUrl", t("sso.userinfoUrl"), { type: "url" })}
          {text("subjectClaim", t("sso.subjectClaim"))}
          {text("emailClaim", t("sso.emailClaim"))}
          {text("firstNameClaim", t("sso.firstNameClaim"))}
          {text("lastNameClaim", t("sso.lastNameClaim"))}
        </div>
      </fieldset>
      <fieldset className="sso-fieldset">
        <legend>{t("sso.accounts")}</legend>
        {check("enabled", t("sso.enabled"))}
        {check("createUsers", t("sso.createUsers"), t("sso.createUsersHint"))}
        {check("managedExternally", t("sso.managedExternally"), t("sso.managedExternallyHint"))}
        {check("linkByEmail", t("sso.linkByEmail"), t("sso.linkByEmailHint"))}
        <div className="sso-grid">
          <div className="field">
            <label htmlFor="sso-defaultRole">{t("sso.defaultRole")}</label>
            <select {...controlProps(fields.defaultRole, "sso-defaultRole")} key={fields.defaultRole.key}>
              <option value="learner">{t("users.roles.learner")}</option>
              <option value="admin">{t("users.roles.admin")}</option>
            </select>
            <ErrorList id="sso-defaultRole-error" errors={fields.defaultRole.errors} />
          </div>
          <div className="field">
            <span className="label">{t("sso.defaultGroups")}</span>
            {groups.length ? (
              <div className="sso-groups">
                {groups.map((g) => (
                  <label key={g.id}>
                    <input
                      type="checkbox"
                      name="defaultGroupIds"
                      value={g.id}
                      defaultChecked={groupIds.includes(String(g.id))}
                      key={`${fields.defaultGroupIds.key}-${g.id}`}
                    />{" "}
                    {g.name}
                  </label>
                ))}
              </div>
            ) : (
              <p className="field-hint">{t("sso.noGroups")}</p>
            )}
            <ErrorList errors={fields.defaultGroupIds.errors} />
          </div>
        </div>
      </fieldset>
      <button type="submit" name="intent" value="save" className="primary" data-testid={`${testId}-submit`}>
        {submitLabel}
      </button>
    </Form>
  );
}
