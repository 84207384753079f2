import { getFormProps, useForm } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { parseForm } from "~/utils/form";
import { Field, FormErrors } from "~/components/form";
import { verifyPassword } from "~/models/auth/secrets.server";
import { changePassword } from "~/models/auth/tokens.server";
import { changePasswordSchema } from "~/utils/auth-schemas";
import { requireUser, realmFor } from "~/kernel/auth.server";
import { rememberDevice } from "~/kernel/sign-in.server";
import { findPersonByEmail } from "~/models/auth/login.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm } from "~/utils/form-data.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context);
  return { managedExternally: auth.person.managedExternally };
}

/** Changing the password signs out every other device of the person, and voids their known devices but this one. */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireUser(request, context);
  const submission = parseForm(await readForm(request, context), changePasswordSchema);
  const hide = ["currentPassword", "password", "passwordConfirmation"];
  if (auth.person.managedExternally) {
    return json(submission.reply({ formErrors: ["auth.password.managedExternally"], hideFields: hide }), { status: 403 });
  }
  if (submission.status !== "success") return json(submission.reply({ hideFields: hide }), { status: 400 });
  if (!(await verifyPassword(auth.person.passwordHash, submission.value.currentPassword))) {
    return json(submission.reply({ fieldErrors: { currentPassword: ["auth.password.wrongCurrent"] }, hideFields: hide }), {
      status: 400,
    });
  }
  const realm = realmFor(context);
  await changePassword(realm, { personId: auth.person.id, password: submission.value.password, keepSessionId: auth.session.id });
  const person = findPersonByEmail(realm, auth.person.email);
  return redirectWithFlash("/auth/password", "auth.password.changed", {
    headers: person ? { "Set-Cookie": await rememberDevice(context, realm, person) } : {},
  });
}

export default function ChangePassword() {
  const { t } = useTranslation();
  const { managedExternally } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseForm(formData, changePasswordSchema),
  });
  return (
    <section className="auth-card">
      <h1>{t("auth.password.title")}</h1>
      {managedExternally ? (
        <p>{t("auth.password.managedExternally")}</p>
      ) : (
        <Form method="post" {...getFormProps(form)}>
          <FormErrors errors={form.errors} />
          <Field label={t("auth.password.current")} field={fields.currentPassword} type="password" autoComplete="current-password" />
          <Field label={t("auth.password.new")} field={fields.password} type="password" autoComplete="new-password" />
          <Field label={t("auth.password.confirmation")} field={fields.passwordConfirmation} type="password" autoComplete="new-password" />
          <button type="submit" className="primary">
            {t("auth.password.submit")}
          </button>
        </Form>
      )}
    </section>
  );
}
