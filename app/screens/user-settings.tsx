import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ErrorList } from "~/components/form";
import { listGroups } from "~/models/group.server";
import { updateOrganization } from "~/models/organization.server";
import { getUserSettings, saveUserSettings, userSettingsSchema } from "~/models/user-settings.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { withManagedOrganization } from "~/kernel/manage.server";

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
    const formData = await request.formData();
    // Only the form's own submission saves (checkboxes post nothing when off, so an empty body is refused).
    if (formData.get("intent") !== "save") return json({ errors: { _: ["validation.invalid"] } }, { status: 400 });
    const parsed = userSettingsSchema.safeParse({
      defaultLanguage: formData.get("defaultLanguage") ?? "",
      defaultGroupIds: formData.getAll("defaultGroupIds"),
      inviteImported: formData.get("inviteImported"),
      twoFactorRequired: formData.get("twoFactorRequired"),
    });
    if (!parsed.success) return json({ errors: parsed.error.flatten().fieldErrors }, { status: 400 });
    const saved = saveUserSettings(m.db, parsed.data);
    if (!saved.ok) return json({ errors: { [saved.field]: [saved.message] } }, { status: 400 });
    if (parsed.data.twoFactorRequired !== m.organization.twoFactorRequired) {
      updateOrganization(context.platform.db, m.organization.id, { twoFactorRequired: parsed.data.twoFactorRequired });
      context.platform.organizations.invalidate();
    }
    return redirectWithFlash("/dashboard/users/settings", "import.flash.settingsSaved");
  });
}

export function UserSettings() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof userSettingsLoader>();
  const errors = useActionData<{ errors: Record<string, string[] | undefined> }>()?.errors ?? {};
  return (
    <section>
      <div className="toolbar">
        <h2>{t("import.settings.title")}</h2>
        <Link to="/dashboard/users">{t("import.back")}</Link>
      </div>
      <Form method="post" className="panel" data-testid="user-settings">
        <input type="hidden" name="intent" value="save" />
        <p className="hint">{t("import.settings.intro")}</p>
        <div className="field">
          <label htmlFor="settings-language">{t("import.settings.language")}</label>
          <select id="settings-language" name="defaultLanguage" defaultValue={data.settings.defaultLanguage ?? ""}>
            <option value="">{t("users.languageDefault")}</option>
            {LANGUAGES.map((lng) => (
              <option key={lng} value={lng}>
                {LANGUAGE_NAMES[lng]}
              </option>
            ))}
          </select>
          <ErrorList errors={errors.defaultLanguage} />
        </div>
        <fieldset className="field">
          <legend>{t("import.settings.groups")}</legend>
          {data.groups.length === 0 ? <p className="hint">{t("groups.empty")}</p> : null}
          {data.groups.map((g) => (
            <label key={g.id} className="field-check">
              <input type="checkbox" name="defaultGroupIds" value={g.id} defaultChecked={data.settings.defaultGroupIds.includes(g.id)} /> {g.name}
            </label>
          ))}
          <ErrorList errors={errors.defaultGroupIds} />
        </fieldset>
        <div className="field field-check">
          <label>
            <input type="checkbox" name="inviteImported" defaultChecked={data.settings.inviteImported} /> {t("import.settings.invite")}
          </label>
        </div>
        <div className="field field-check">
          <label>
            <input type="checkbox" name="twoFactorRequired" defaultChecked={data.twoFactorRequired} /> {t("import.settings.twoFactor")}
          </label>
          <p className="hint">{t("import.settings.twoFactorHint")}</p>
        </div>
        <button type="submit" className="primary" data-testid="save-settings">
          {t("users.save")}
        </button>
      </Form>
    </section>
  );
}
