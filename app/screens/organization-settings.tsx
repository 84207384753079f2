import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { controlProps, ErrorList, Field, FormMessage, LanguageField, useZodForm } from "~/components/form";
import { organizationSettingsSchema } from "~/models/forms/organizations";
import { isPublishedCourse, publishedCourseChoices } from "~/models/course.server";
import { currentSettings, hostConflicts, updateOrganization } from "~/models/organization.server";
import { reminderSettingsSchema } from "~/models/forms/reminders";
import { getReminderSettings, saveReminderSettings, type ReminderSettingsValues } from "~/models/reminder-settings.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { handleUpload } from "~/kernel/upload.server";
import { readForm } from "~/utils/form-data.server";

/**
 * Organization settings and branding (docs/product.md §3 Organization). Host names (prefix, domain, custom domain)
 * decide which requests reach the organization, so only super-admins change them; an organization's own
 * admin sees them read-only.
 */
export function settingsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "read:organization" }, ({ organization, db, base }) => ({
      area,
      base,
      platformDomain: context.platform.platformDomain,
      settings: {
        ...currentSettings(organization),
        featuredCourse: organization.featuredCourse ? String(organization.featuredCourse) : "",
      },
      branding: {
        logo: context.platform.brandingUrl(organization, organization.logo),
        favicon: context.platform.brandingUrl(organization, organization.favicon),
        loginBackground: context.platform.brandingUrl(organization, organization.loginBackground),
      },
      courses: publishedCourseChoices(db),
      reminders: getReminderSettings(db),
    }));
}

const BRANDING = { logo: "logo", favicon: "favicon", loginBackground: "loginBackground" } as const;
type BrandingField = keyof typeof BRANDING;
const isBrandingField = (v: unknown): v is BrandingField => typeof v === "string" && Object.hasOwn(BRANDING, v);

/** Branding images go through the file store (type from the bytes, re-encoded) and are kept as `file:<id>`. */
async function brandingAction(request: Request, context: ActionFunctionArgs["context"], managed: Managed) {
  const { organization, db, base, viewer: auth } = managed;
  return handleUpload(
    request,
    context,
    { organizationId: organization.id, field: "image", allowed: ["image"] },
    async (upload) => {
      const field = upload.fields.get("field");
      if (!isBrandingField(field)) throw new Response("Bad Request", { status: 400 });
      if (upload.fields.get("intent") === "remove") {
        updateOrganization(context.platform.db, organization.id, { [field]: null });
      } else {
        const stored = await upload.store(db, managed.area === "dashboard" ? auth.person.id : null);
        updateOrganization(context.platform.db, organization.id, { [field]: `file:${stored.id}` });
      }
      context.platform.organizations.invalidate();
      return redirectWithFlash(base, "flash.settingsSaved");
    },
    ({ status, message }) => json({ brandingError: message }, { status }),
  );
}

export function settingsAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:organization" }, async (managed) => {
      const { organization, base } = managed;
      if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
        return brandingAction(request, context, managed);
      }
      const formData = await readForm(request, context);
      if (formData.get("intent") === "reminders") return remindersAction(formData, managed);
      if (area === "dashboard") {
        // Host names are the platform's to assign: whatever the form says, they stay as they are.
        formData.set("urlPrefix", organization.urlPrefix ?? "");
        formData.set("domain", organization.domain ?? "");
        formData.set("customDomain", organization.customDomain ?? "");
      }
      const submission = parseForm(formData, organizationSettingsSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      const conflicts = hostConflicts(context.platform.db, context.platform.platformDomain, submission.value, organization.id);
      if (submission.value.featuredCourse && !isPublishedCourse(managed.db, submission.value.featuredCourse)) {
        conflicts.featuredCourse = ["validation.invalid"];
      }
      if (Object.keys(conflicts).length) return json(submission.reply({ fieldErrors: conflicts }), { status: 400 });
      updateOrganization(context.platform.db, organization.id, submission.value);
      context.platform.organizations.invalidate();
      return redirectWithFlash(base, "flash.settingsSaved");
    });
}

/** The reminders panel's own form (issue 34): its reply is kept apart so the settings form keeps its values. */
function remindersAction(formData: FormData, { db, base }: Managed) {
  const submission = parseForm(formData, reminderSettingsSchema);
  if (submission.status !== "success") return json({ reminders: submission.reply() }, { status: 400 });
  saveReminderSettings(db, submission.value);
  return redirectWithFlash(base, "reminders.flash.saved");
}

export function SettingsScreen() {
  const { t } = useTranslation();
  const { area, base, settings, courses, platformDomain, branding, reminders } =
    useLoaderData<ReturnType<ReturnType<typeof settingsLoader>> extends Promise<infer T> ? T : never>();
  const actionData = useActionData<unknown>() as { brandingError?: string; reminders?: unknown } | undefined;
  const lastResult = actionData && ("brandingError" in actionData || "reminders" in actionData) ? undefined : actionData;
  const [form, fields] = useZodForm({ schema: organizationSettingsSchema, lastResult, defaultValue: settings });
  const hostsEditable = area === "admin";
  return (
    <section>
      <h2>{t("settings.title")}</h2>
      <Form method="post" {...getFormProps(form)} className="panel">
        <Field label={t("admin.name")} field={fields.name} type="text" />
        <LanguageField label={t("admin.language")} field={fields.language} />
        {hostsEditable ? (
          <>
            <Field label={t("admin.urlPrefix")} field={fields.urlPrefix} type="text" />
            <p className="hint">{t("admin.urlPrefixHint", { domain: platformDomain })}</p>
            <Field label={t("settings.domain")} field={fields.domain} type="text" />
            <Field label={t("settings.customDomain")} field={fields.customDomain} type="text" />
          </>
        ) : (
          <dl className="readonly">
            <dt>{t("admin.urlPrefix")}</dt>
            <dd>{settings.urlPrefix || "—"}</dd>
            <dt>{t("settings.domain")}</dt>
            <dd>{settings.domain || "—"}</dd>
            <dt>{t("settings.customDomain")}</dt>
            <dd>{settings.customDomain || "—"}</dd>
          </dl>
        )}
        <div className="field field-check">
          <label>
            <input {...getInputProps(fields.twoFactorRequired, { type: "checkbox" })} key={fields.twoFactorRequired.key} />{" "}
            {t("settings.twoFactorRequired")}
          </label>
        </div>
        <Field label={t("settings.footer")} field={fields.footer} type="text" />
        <Field label={t("settings.bcc")} field={fields.bcc} type="email" />
        <div className="field">
          <label htmlFor={fields.featuredCourse.id}>{t("settings.featuredCourse")}</label>
          <select {...getSelectProps(fields.featuredCourse)} key={fields.featuredCourse.key}>
            <option value="">{t("settings.none")}</option>
            {courses.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {c.title}
              </option>
            ))}
          </select>
          <ErrorList errors={fields.featuredCourse.errors} />
        </div>
        <button type="submit" className="primary" data-testid="save-settings">
          {t("settings.save")}
        </button>
      </Form>
      <ReminderSettingsPanel values={reminders} lastResult={actionData?.reminders} />
      <div className="panel">
        <h3>{t("settings.branding")}</h3>
        <FormMessage>{actionData?.brandingError}</FormMessage>
        <p className="hint">{t("settings.imageHint")}</p>
        {(["logo", "favicon", "loginBackground"] as const).map((field) => (
          <div key={field} className="branding-item">
            <strong>{t(`settings.${field}`)}</strong>
            {branding[field] ? <img src={branding[field]!} alt="" className="branding-preview" data-testid={`preview-${field}`} /> : null}
            <Form method="post" encType="multipart/form-data" className="inline-form">
              <input type="hidden" name="field" value={field} />
              <label>
                <span className="visually-hidden">{t(`settings.${field}`)}</span>
                <input
                  type="file"
                  name="image"
                  accept="image/png,image/jpeg,image/gif,image/webp"
                  required
                  data-testid={`upload-${field}`}
                />
              </label>
              <button type="submit" name="intent" value="upload" data-testid={`submit-${field}`}>
                {t("settings.upload")}
              </button>
            </Form>
            {branding[field] ? (
              <Form method="post" encType="multipart/form-data" className="inline-form">
                <input type="hidden" name="field" value={field} />
                <button type="submit" name="intent" value="remove">
                  {t("settings.remove")}
                </button>
              </Form>
            ) : null}
          </div>
        ))}
      </div>
      {area === "admin" ? (
        <div className="panel danger-zone">
          <h3>{t("settings.dangerZone")}</h3>
          <p className="hint">{t("settings.deleteHint")}</p>
          <Link to={`${base}/delete`} className="button danger" data-testid="delete-organization">
            {t("settings.delete")}
          </Link>
        </div>
      ) : null}
    </section>
  );
}

/** Reminders by e-mail (issue 34; app/models/reminders.server.ts): each kind on or off, and how many days before. */
function ReminderSettingsPanel({ values, lastResult }: { values: ReminderSettingsValues; lastResult: unknown }) {
  const { t } = useTranslation();
  const [form, fields] = useZodForm({
    id: "reminder-settings",
    schema: reminderSettingsSchema,
    lastResult,
    defaultValue: {
      onAssignment: values.onAssignment ? "on" : undefined,
      beforeDue: values.beforeDue ? "on" : undefined,
      daysBefore: String(values.daysBefore),
      onDueDate: values.onDueDate ? "on" : undefined,
      whileOverdue: values.whileOverdue ? "on" : undefined,
      weeklyDigest: values.weeklyDigest ? "on" : undefined,
    },
  });
  const check = (name: "onAssignment" | "beforeDue" | "onDueDate" | "whileOverdue" | "weeklyDigest") => (
    <div className="field field-check">
      <label>
        <input {...getInputProps(fields[name], { type: "checkbox" })} key={fields[name].key} data-testid={`reminders-${name}`} />{" "}
        {t(`reminders.settings.${name}`)}
      </label>
    </div>
  );
  return (
    <Form method="post" {...getFormProps(form)} className="panel" data-testid="reminder-settings">
      <h3>{t("reminders.settings.title")}</h3>
      <p className="hint">{t("reminders.settings.intro")}</p>
      <input type="hidden" name="intent" value="reminders" />
      {check("onAssignment")}
      {check("beforeDue")}
      <div className="field">
        <label htmlFor="reminders-days-before">{t("reminders.settings.daysBefore")}</label>
        <input
          {...controlProps(fields.daysBefore, "reminders-days-before")}
          key={fields.daysBefore.key}
          type="number"
          min={1}
          max={30}
          inputMode="numeric"
        />
        <ErrorList id="reminders-days-before-error" errors={fields.daysBefore.errors} />
      </div>
      {check("onDueDate")}
      {check("whileOverdue")}
      {check("weeklyDigest")}
      <button type="submit" className="primary" data-testid="save-reminders">
        {t("reminders.settings.save")}
      </button>
    </Form>
  );
}
