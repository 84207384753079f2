import { getFormProps, useForm } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { parseForm } from "~/utils/form";
import { Field, FormErrors, FormMessage } from "~/components/form";
import { findPersonByEmail } from "~/models/auth/login.server";
import { isResetTokenLive, resetPassword } from "~/models/auth/tokens.server";
import { newPasswordSchema } from "~/utils/auth-schemas";
import { realmFor } from "~/kernel/auth.server";
import { rememberDevice } from "~/kernel/sign-in.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm } from "~/utils/form-data.server";

/** docs/product.md §2: /auth/reset/{email}/{token}. Without a token there is nothing to reset: ask for a link. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  if (!params.token) throw redirect("/auth/reset");
  const live = isResetTokenLive(realmFor(context), { email: params.email ?? "", token: params.token });
  return { live };
}

/** A good token sets the password, spends the token and signs the person out everywhere. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request, context), newPasswordSchema);
  const hide = ["password", "passwordConfirmation"];
  if (submission.status !== "success") return json(submission.reply({ hideFields: hide }), { status: 400 });
  const realm = realmFor(context);
  const email = params.email ?? "";
  const ok = await resetPassword(realm, { email, token: params.token ?? "", password: submission.value.password });
  if (!ok) return json(submission.reply({ formErrors: ["auth.reset.invalidLink"], hideFields: hide }), { status: 400 });
  // The link proved access to the mailbox: this browser becomes a known device under the new password, so
  // someone still guessing cannot hold its owner back from signing in (kernel/sign-in.server.ts).
  const person = findPersonByEmail(realm, email);
  return redirectWithFlash("/auth/login", "auth.password.changed", {
    headers: person ? { "Set-Cookie": await rememberDevice(context, realm, person) } : {},
  });
}

export default function ResetPassword() {
  const { t } = useTranslation();
  const { live } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseForm(formData, newPasswordSchema),
  });
  if (!live) {
    return (
      <section className="auth-card">
        <h1>{t("auth.reset.newTitle")}</h1>
        <FormMessage>{t("auth.reset.invalidLink")}</FormMessage>
        <p>
          <Link to="/auth/reset">{t("auth.reset.requestAgain")}</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="auth-card">
      <h1>{t("auth.reset.newTitle")}</h1>
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <Field label={t("auth.password.new")} field={fields.password} type="password" autoComplete="new-password" autoFocus />
        <Field label={t("auth.password.confirmation")} field={fields.passwordConfirmation} type="password" autoComplete="new-password" />
        <button type="submit" className="primary">
          {t("auth.reset.save")}
        </button>
      </Form>
    </section>
  );
}
