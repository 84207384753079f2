import { getFormProps, useForm } from "@conform-to/react";
import { json, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { parseForm } from "~/utils/form";
import { Field, FormErrors } from "~/components/form";
import { SsoButtons } from "~/components/sso-buttons";
import ssoStyles from "~/styles/sso.css";
import { passwordLoginEnabled, signInOptions } from "~/models/sso/drivers.server";
import { SSO_ERROR_CODES } from "~/kernel/sso.server";
import { revokeSession } from "~/models/auth/session.server";
import { loginSchema } from "~/utils/auth-schemas";
import { homeFor, realmFor, sessionCookie, startSession } from "~/kernel/auth.server";
import { checkPassword, loginRefusal, rememberDevice } from "~/kernel/sign-in.server";
import { redirect, safeRedirectPath } from "~/utils/redirect";
import { pageMeta } from "~/utils/meta";
import { readForm } from "~/utils/form-data.server";

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, { title: "Sign in" });
export const links = () => [{ rel: "stylesheet", href: ssoStyles }];
/** A guess held back says when to come back: the action's `Retry-After`, on the page as on /api. */
export const headers: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get("Retry-After");
  return retryAfter ? { "Retry-After": retryAfter } : new Headers();
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = context.viewer;
  const url = new URL(request.url);
  const redirectTo = url.searchParams.get("redirectTo") ?? "";
  if (auth?.session && !auth.session.twoFactorPending && auth.role) {
    throw redirect(safeRedirectPath(redirectTo, homeFor(auth)));
  }
  const sso = context.db ? signInOptions(context.db) : null;
  const ssoError = SSO_ERROR_CODES.find((code) => code === url.searchParams.get("sso")) ?? null;
  return {
    redirectTo,
    platform: !context.organization,
    canUseLinks: Boolean(context.organization) && sso?.passwordLogin !== false,
    sso,
    ssoError,
  };
}

/** docs/product.md §2 and §4: the password step; where the organization asks for it, the code step follows. */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request, context), loginSchema);
  if (submission.status !== "success") {
    return json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  }
  if (context.db && !passwordLoginEnabled(context.db)) {
    return json(submission.reply({ formErrors: ["sso.errors.passwordOff"], hideFields: ["password"] }), { status: 403 });
  }
  const realm = realmFor(context);
  const { email, password, redirectTo } = submission.value;
  const result = await checkPassword(request, context, realm, { email, password });
  if (!result.ok) {
    const refusal = loginRefusal(result);
    return json(submission.reply({ formErrors: [refusal.formError], hideFields: ["password"] }), {
      status: refusal.pageStatus,
      headers: refusal.headers,
    });
  }
  // A new sign-in on this browser replaces the one it had.
  const previous = context.viewer;
  if (previous?.session) revokeSession(realm, previous.session.id);
  const { token, twoFactorPending } = await startSession(request, context, realm, result.person, { kind: "web" });
  const headers = new Headers({ "Set-Cookie": await sessionCookie.serialize(token) });
  const target = safeRedirectPath(redirectTo, "/auth/redirect");
  if (twoFactorPending) {
    return redirect(`/auth/2fa/confirm?${new URLSearchParams({ redirectTo: target })}`, { headers });
  }
  // The sign-in is complete: this browser is now a known device of the person (the code step does the same).
  headers.append("Set-Cookie", await rememberDevice(context, realm, result.person));
  return redirect(target, { headers });
}

export default function Login() {
  const { t } = useTranslation();
  const { redirectTo, platform, canUseLinks, sso, ssoError } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseForm(formData, loginSchema),
  });
  return (
    <section className="auth-card">
      <h1>{platform ? t("auth.login.platformTitle") : t("auth.login.title")}</h1>
      <SsoButtons options={sso} error={ssoError} redirectTo={redirectTo} />
      {sso?.passwordLogin === false ? null : (
        <>
          <Form method="post" {...getFormProps(form)}>
            <FormErrors errors={form.errors} />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Field label={t("auth.login.email")} field={fields.email} type="email" autoComplete="username" autoFocus />
            <Field label={t("auth.login.password")} field={fields.password} type="password" autoComplete="current-password" />
            <button type="submit" className="primary" data-testid="login-submit">
              {t("auth.login.submit")}
            </button>
          </Form>
          <p className="auth-links">
            <Link to="/auth/reset">{t("auth.login.forgot")}</Link>
            {canUseLinks ? <Link to="/auth/magic">{t("auth.login.magicLink")}</Link> : null}
          </p>
        </>
      )}
    </section>
  );
}
