import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/utils/translate";
import { ssoDriverSchema } from "~/models/forms/sso";
import { controlProps, ErrorList, FormErrors, useZodForm } from "./form";
import { DriverAccountFields, DriverTextField } from "./sso-driver-fields";

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
  const [kind, setKind] = useState(String(fields.kind.initialValue ?? values.kind));
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
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
        <DriverTextField field={fields.label} label={t("sso.label")} hint={t("sso.labelHint")} required />
        <DriverTextField field={fields.slug} label={t("sso.slug")} hint={t("sso.slugHint")} required />
        <DriverTextField field={fields.clientId} label={t("sso.clientId")} required />
        <DriverTextField
          field={fields.clientSecret}
          label={t("sso.clientSecret")}
          type="password"
          hint={hasSecret ? t("sso.clientSecretKept") : t("sso.clientSecretHint")}
          required={!hasSecret}
        />
        <DriverTextField field={fields.scopes} label={t("sso.scopes")} />
      </div>
      <fieldset className="sso-fieldset" hidden={hydrated && kind !== "oidc"}>
        <legend>{t("sso.kinds.oidc")}</legend>
        <DriverTextField field={fields.issuer} label={t("sso.issuer")} type="url" hint={t("sso.issuerHint")} />
      </fieldset>
      <fieldset className="sso-fieldset" hidden={hydrated && kind !== "oauth2"}>
        <legend>{t("sso.kinds.oauth2")}</legend>
        <p className="field-hint">{t("sso.oauth2Hint")}</p>
        <div className="sso-grid">
          <DriverTextField field={fields.authorizationUrl} label={t("sso.authorizationUrl")} type="url" />
          <DriverTextField field={fields.tokenUrl} label={t("sso.tokenUrl")} type="url" />
          <DriverTextField field={fields.userinfoUrl} label={t("sso.userinfoUrl")} type="url" />
          <DriverTextField field={fields.subjectClaim} label={t("sso.subjectClaim")} />
          <DriverTextField field={fields.emailClaim} label={t("sso.emailClaim")} />
          <DriverTextField field={fields.firstNameClaim} label={t("sso.firstNameClaim")} />
          <DriverTextField field={fields.lastNameClaim} label={t("sso.lastNameClaim")} />
        </div>
      </fieldset>
      <DriverAccountFields fields={fields} groups={groups} />
      <button type="submit" name="intent" value="save" className="primary" data-testid={`${testId}-submit`}>
        {submitLabel}
      </button>
    </Form>
  );
}
