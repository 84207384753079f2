import { getFormProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { controlProps, ErrorList, FormErrors, useZodForm } from "~/components/form";
import { listGroups } from "~/models/group.server";
import { updateOrganization } from "~/models/organization.server";
import { getUserSettings, saveUserSettings } from "~/models/user-settings.server";
import { AUDIT_RETENTION_CHOICES, userSettingsSchema } from "~/models/forms/user-settings";
import { parseForm } from "~/utils/form";
import { redirectWithFlash } from "~/utils/flash.server";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { withManagedOrganization } from "~/kernel/manage.server";
import { Heading } from "~/components/heading";
import { readForm } from "~/utils/form-data.server";

/** The users screen's "settings" (docs/product.md §2): what new people of this organization start with. */
const area = { area: "dashboard" as const, capability: "write:user" as const };

export function userSettingsLoader({ request, context, params }: LoaderFunctionArgs) {
  return withManagedOrganization(request, context, params, area, (m) => ({
    settings: getUserSettings(m.db),
    twoFactorRequired: m.organization.twoFactorRequired,
    groups: listGroups(m.db, m.viewer).map((g) => ({ id: g.id, name: g.name })),
  }));
}

export function userSettingsAction({ request, context, params }: ActionFunctionArgs) {
  return withManagedOrganization(request, context, params, area, async (m) => {
    const formData = await readForm(request, context);
    // Only the form's own submission saves (checkboxes post nothing when off, so an empty body is refused).
    const submission = parseForm(formData, userSettingsSchema);
    if (formData.get("intent") !== "save") return json(submission.reply({ formErrors: ["validation.invalid"] }), { status: 400 });
    if (submission.status !== "success") return json(submission.reply(), { status: 400 });
    const settings = submission.value;
    const saved = saveUserSettings(m.db, settings);
    if (!saved.ok) return json(submission.reply({ fieldErrors: { [saved.field]: [saved.message] } }), { status: 400 });
    if (settings.twoFactorRequired !== m.organization.twoFactorRequired) {
      updateOrganization(context.platform.db, m.organization.id, { twoFactorRequired: settings.twoFactorRequired });
      context.platform.organizations.invalidate();
    }
    return redirectWithFlash("/dashboard/users/settings", "import.flash.settingsSaved");
  });
}

export function UserSettings() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof userSettingsLoader>();
  const [form, fields] = useZodForm({
    schema: userSettingsSchema,
    lastResult: useActionData(),
    defaultValue: {
      defaultLanguage: data.settings.defaultLanguage ?? "",
      defaultGroupIds: data.settings.defaultGroupIds.map(String),
      inviteImported: data.settings.inviteImported ? "on" : undefined,
      twoFactorRequired: data.twoFactorRequired ? "on" : undefined,
      auditRetentionDays: data.settings.auditRetentionDays === null ? "forever" : String(data.settings.auditRetentionDays),
    },
  });
  const chosenGroups = ([] as unknown[]).concat(fields.defaultGroupIds.initialValue ?? []);
  const checked = (value: unknown) => value === "on";
  return (
    <section>
      <div className="toolbar">
        <Heading>{t("import.settings.title")}</Heading>
        <Link to="/dashboard/users">{t("import.back")}</Link>
      </div>
      <Form method="post" className="panel" data-testid="user-settings" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save" />
        <FormErrors errors={form.errors} />
        <p className="hint">{t("import.settings.intro")}</p>
        <div className="field">
          <label htmlFor="settings-language">{t("import.settings.language")}</label>
          <select {...controlProps(fields.defaultLanguage, "settings-language")} key={fields.defaultLanguage.key}>
            <option value="">{t("users.languageDefault")}</option>
            {LANGUAGES.map((lng) => (
              <option key={lng} value={lng}>
                {LANGUAGE_NAMES[lng]}
              </option>
            ))}
          </select>
          <ErrorList id="settings-language-error" errors={fields.defaultLanguage.errors} />
        </div>
        <fieldset className="field">
          <legend>{t("import.settings.groups")}</legend>
          {data.groups.length === 0 ? <p className="hint">{t("groups.empty")}</p> : null}
          {data.groups.map((g) => (
            <label key={g.id} className="field-check">
              <input
                type="checkbox"
                name={fields.defaultGroupIds.name}
                value={g.id}
                defaultChecked={chosenGroups.includes(String(g.id))}
                key={fields.defaultGroupIds.key}
              />{" "}
              {g.name}
            </label>
          ))}
          <ErrorList errors={fields.defaultGroupIds.errors} />
        </fieldset>
        <div className="field field-check">
          <label>
            <input
              type="checkbox"
              name={fields.inviteImported.name}
              defaultChecked={checked(fields.inviteImported.initialValue)}
              key={fields.inviteImported.key}
            />{" "}
            {t("import.settings.invite")}
          </label>
        </div>
        <div className="field field-check">
          <label>
            <input
              type="checkbox"
              name={fields.twoFactorRequired.name}
              defaultChecked={checked(fields.twoFactorRequired.initialValue)}
              key={fields.twoFactorRequired.key}
            />{" "}
            {t("import.settings.twoFactor")}
          </label>
          <p className="hint">{t("import.settings.twoFactorHint")}</p>
        </div>
        <div className="field">
          <label htmlFor="settings-audit-retention">{t("audit.retention.label")}</label>
          <select
            {...controlProps(fields.auditRetentionDays, "settings-audit-retention")}
            key={fields.auditRetentionDays.key}
            aria-describedby={`settings-audit-retention-hint${fields.auditRetentionDays.errors?.length ? " settings-audit-retention-error" : ""}`}
          >
            {AUDIT_RETENTION_CHOICES.map((c) => (
              <option key={c} value={c}>
                {c === "forever" ? t("audit.retention.forever") : t("audit.retention.days", { count: Number(c) })}
              </option>
            ))}
          </select>
          <p className="hint" id="settings-audit-retention-hint">
            {t("audit.retention.hint")}
          </p>
          <ErrorList id="settings-audit-retention-error" errors={fields.auditRetentionDays.errors} />
        </div>
        <button type="submit" className="primary" data-testid="save-settings">
          {t("users.save")}
        </button>
      </Form>
    </section>
  );
}
