import type { SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { FormMessage } from "~/components/form";
import { NEW_DRIVER, SsoDriverForm, type DriverFormValues } from "~/components/sso-driver-form";
import { groupChoices } from "~/models/group.server";
import {
  addDriver,
  deleteDriver,
  driverFormValues,
  editDriver,
  getDriver,
  listDrivers,
  passwordLoginEnabled,
  setPasswordLogin,
  type DriverProblems,
} from "~/models/sso/drivers.server";
import { ssoDriverSchema } from "~/models/forms/sso";
import { parseForm } from "~/utils/form";
import { redirectUriFor } from "~/models/sso/flow.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { readForm } from "~/utils/form-data.server";

/**
 * docs/product.md §3 Organization "SSO methods (including e-mail/password)": which sign-in methods are on, and the
 * organization's identity providers. Client secrets go in and never come out.
 */
const CAPABILITY = "write:organization" as const;
const base = (m: Managed) => `${m.base}/sso`;

function tenantOf(m: Managed, context: LoaderFunctionArgs["context"]) {
  return { db: m.db, box: context.platform.secrets, organizationId: m.organization.id, origin: context.platform.originFor(m.organization) };
}

/** A driver's problems found by the model (a slug taken, a secret missing…) on conform's reply: `_` is the form's. */
function withProblems(submission: ReturnType<typeof parseForm<typeof ssoDriverSchema>>, problems: DriverProblems) {
  const { _: formErrors, ...fieldErrors } = problems;
  return submission.reply({
    formErrors: formErrors ?? [],
    fieldErrors: fieldErrors as Record<string, string[]>,
    hideFields: ["clientSecret"],
  });
}

export function ssoLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const tenant = tenantOf(m, context);
      return {
        base: base(m),
        passwordLogin: passwordLoginEnabled(m.db),
        drivers: listDrivers(m.db).map((d) => ({
          id: d.id,
          slug: d.slug,
          label: d.label,
          kind: d.kind,
          enabled: d.enabled,
          createUsers: d.createUsers,
          callback: redirectUriFor(tenant, d, "web"),
        })),
        groups: groupChoices(m.db),
        callbackPattern: redirectUriFor(tenant, { slug: "{slug}" }, "web"),
        appCallbackPattern: redirectUriFor(tenant, { slug: "{slug}" }, "api"),
      };
    });
}

export function ssoAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const formData = await readForm(request, context);
      if (formData.get("intent") === "methods") {
        const problem = setPasswordLogin(m.db, formData.get("passwordLogin") === "on");
        if (problem) return json({ methodsError: "sso.errors.needsDriver" }, { status: 400 });
        return redirectWithFlash(base(m), "flash.settingsSaved");
      }
      const submission = parseForm(formData, ssoDriverSchema);
      if (submission.status !== "success") return json({ result: submission.reply({ hideFields: ["clientSecret"] }) }, { status: 400 });
      const result = addDriver(m.db, context.platform.secrets, m.organization.id, submission.value);
      if (!result.ok) return json({ result: withProblems(submission, result.problems) }, { status: 400 });
      return redirectWithFlash(base(m), "flash.settingsSaved");
    });
}

export function SsoMethods() {
  const { t } = useTranslation();
  const data = useLoaderData<Awaited<ReturnType<ReturnType<typeof ssoLoader>>>>();
  const action = useActionData<{ methodsError?: string; result?: SubmissionResult<string[]> }>();
  return (
    <section className="sso-settings">
      <h2>{t("sso.title")}</h2>
      <p className="hint">{t("sso.intro")}</p>
      <Form method="post" className="panel">
        <FormMessage>{action?.methodsError ? t(action.methodsError) : null}</FormMessage>
        <div className="field field-check">
          <label>
            <input type="checkbox" name="passwordLogin" defaultChecked={data.passwordLogin} data-testid="password-login" />{" "}
            {t("sso.passwordLogin")}
          </label>
          <p className="field-hint">{t("sso.passwordLoginHint")}</p>
        </div>
        <button type="submit" name="intent" value="methods" data-testid="save-methods">
          {t("sso.saveMethods")}
        </button>
      </Form>
      <div className="panel">
        <h3>{t("sso.drivers")}</h3>
        {data.drivers.length === 0 ? (
          <p className="empty-state">{t("sso.noDrivers")}</p>
        ) : (
          <ul className="sso-driver-list" data-testid="sso-drivers">
            {data.drivers.map((d) => (
              <li key={d.id}>
                <div>
                  <Link to={`${data.base}/${d.id}`} className="sso-driver-name">
                    {d.label}
                  </Link>
                  <span className="badge">{t(`sso.kinds.${d.kind}`)}</span>
                  <span className={`badge ${d.enabled ? "badge-on" : "badge-off"}`}>{d.enabled ? t("sso.on") : t("sso.off")}</span>
                </div>
                <code className="sso-callback">{d.callback}</code>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="panel">
        <h3>{t("sso.add")}</h3>
        <CallbackAddresses web={data.callbackPattern} app={data.appCallbackPattern} />
        <SsoDriverForm
          key={data.drivers.length}
          values={NEW_DRIVER}
          lastResult={action?.result}
          groups={data.groups}
          hasSecret={false}
          submitLabel={t("sso.add")}
          testId="add-driver"
        />
      </div>
    </section>
  );
}

function CallbackAddresses({ web, app }: { web: string; app: string }) {
  const { t } = useTranslation();
  return (
    <dl className="sso-callbacks">
      <dt>{t("sso.redirectUris")}</dt>
      <dd>
        {t("sso.redirectWeb")}: <code>{web}</code>
      </dd>
      <dd>
        {t("sso.redirectApp")}: <code>{app}</code>
      </dd>
    </dl>
  );
}

function driverFrom(m: Managed, id: string | undefined) {
  const driver = /^\d{1,15}$/.test(id ?? "") ? getDriver(m.db, Number(id)) : undefined;
  if (!driver) throw new Response("Not Found", { status: 404 });
  return driver;
}

export function ssoDriverLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, (m) => {
      const driver = driverFrom(m, params.driverId);
      const tenant = tenantOf(m, context);
      return {
        base: base(m),
        id: driver.id,
        label: driver.label,
        values: driverFormValues(driver) as DriverFormValues,
        groups: groupChoices(m.db),
        web: redirectUriFor(tenant, driver, "web"),
        app: redirectUriFor(tenant, driver, "api"),
        demo: driver.slug === "demo-idp",
      };
    });
}

export function ssoDriverAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: CAPABILITY }, async (m) => {
      const driver = driverFrom(m, params.driverId);
      const formData = await readForm(request, context);
      if (formData.get("intent") === "delete") {
        const outcome = deleteDriver(m.db, driver.id);
        if (outcome === "last_driver") return json({ deleteErrors: ["sso.errors.lastDriver"] }, { status: 400 });
        return redirectWithFlash(base(m), "flash.settingsSaved");
      }
      const submission = parseForm(formData, ssoDriverSchema);
      if (submission.status !== "success") return json({ result: submission.reply({ hideFields: ["clientSecret"] }) }, { status: 400 });
      const result = editDriver(m.db, context.platform.secrets, m.organization.id, driver.id, submission.value);
      if (!result) throw new Response("Not Found", { status: 404 });
      if (!result.ok) return json({ result: withProblems(submission, result.problems) }, { status: 400 });
      return redirectWithFlash(base(m), "flash.settingsSaved");
    });
}

export function SsoDriver() {
  const { t } = useTranslation();
  const data = useLoaderData<Awaited<ReturnType<ReturnType<typeof ssoDriverLoader>>>>();
  const action = useActionData<{ result?: SubmissionResult<string[]>; deleteErrors?: string[] }>();
  return (
    <section className="sso-settings">
      <p>
        <Link to={data.base}>← {t("sso.back")}</Link>
      </p>
      <h2>{t("sso.edit", { label: data.label })}</h2>
      {data.demo ? <FormMessage kind="notice">{t("sso.demoNotice")}</FormMessage> : null}
      <div className="panel">
        <CallbackAddresses web={data.web} app={data.app} />
        <SsoDriverForm
          values={data.values}
          lastResult={action?.result}
          formErrors={action?.deleteErrors}
          groups={data.groups}
          hasSecret
          submitLabel={t("sso.save")}
          testId="edit-driver"
        />
      </div>
      <Form method="post" className="panel danger-zone">
        <p className="field-hint">{t("sso.deleteHint")}</p>
        <button type="submit" name="intent" value="delete" className="danger" data-testid="delete-driver">
          {t("sso.delete")}
        </button>
      </Form>
    </section>
  );
}
