import type { FieldMetadata } from "@conform-to/react";
import { useTranslation } from "~/utils/translate";
import type { ssoDriverSchema } from "~/models/forms/sso";
import { controlProps, ErrorList, type useZodForm } from "./form";

/** The identity provider form's fields (app/components/sso-driver-form.tsx). */
export type DriverFields = ReturnType<typeof useZodForm<typeof ssoDriverSchema>>[1];

/** A text, address or password field of the provider form; a password field is never filled in from the server. */
export function DriverTextField({
  field,
  label,
  type = "text",
  hint,
  required = false,
}: {
  field: FieldMetadata<unknown>;
  label: string;
  type?: string;
  hint?: string;
  required?: boolean;
}) {
  const id = `sso-${field.name}`;
  const props = controlProps(field, id);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        {...props}
        key={field.key}
        type={type}
        defaultValue={type === "password" ? "" : props.defaultValue}
        required={required}
        autoComplete={type === "password" ? "new-password" : "off"}
      />
      {hint ? <p className="field-hint">{hint}</p> : null}
      <ErrorList id={`${id}-error`} errors={field.errors} />
    </div>
  );
}

function DriverCheck({ field, label, hint }: { field: FieldMetadata<unknown>; label: string; hint?: string }) {
  return (
    <div className="field field-check">
      <label>
        <input type="checkbox" name={field.name} defaultChecked={field.initialValue === "on"} key={field.key} /> {label}
      </label>
      {hint ? <p className="field-hint">{hint}</p> : null}
      <ErrorList errors={field.errors} />
    </div>
  );
}

/** What a sign-in through the provider may do: whether it is on, creating people, their role and groups. */
export function DriverAccountFields({ fields, groups }: { fields: DriverFields; groups: { id: number; name: string }[] }) {
  const { t } = useTranslation();
  const groupIds = [fields.defaultGroupIds.initialValue ?? []].flat().map(String);
  return (
    <fieldset className="sso-fieldset">
      <legend>{t("sso.accounts")}</legend>
      <DriverCheck field={fields.enabled} label={t("sso.enabled")} />
      <DriverCheck field={fields.createUsers} label={t("sso.createUsers")} hint={t("sso.createUsersHint")} />
      <DriverCheck field={fields.managedExternally} label={t("sso.managedExternally")} hint={t("sso.managedExternallyHint")} />
      <DriverCheck field={fields.linkByEmail} label={t("sso.linkByEmail")} hint={t("sso.linkByEmailHint")} />
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
  );
}
