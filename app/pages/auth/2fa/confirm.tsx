import { getFormProps, useForm } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { parseForm } from "~/utils/form";
import { Field, FormErrors, FormMessage } from "~/components/form";
import { sendTwoFactorCode } from "~/models/auth/mail.server";
import { confirmCode, issueCode } from "~/models/auth/two-factor.server";
import { twoFactorSchema } from "~/utils/auth-schemas";
import { homeFor, requireUser, sessionCookie, realmFor } from "~/kernel/auth.server";
import { rememberDevice } from "~/kernel/sign-in.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { redirect, safeRedirectPath } from "~/utils/redirect";
import { readForm } from "~/utils/form-data.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const auth = await requireUser(request, context, { allowPendingTwoFactor: true });
  const redirectTo = new URL(request.url).searchParams.get("redirectTo") ?? "";
  if (!auth.session.twoFactorPending) throw redirect(safeRedirectPath(redirectTo, homeFor(auth)));
  return { email: auth.person.email, redirectTo };
}

/** The code step: confirm the e-mailed code, or have a new one sent (which voids the old one). */
export async function action({ request, context }: ActionFunctionArgs) {
  const auth = await requireUser(request, context, { allowPendingTwoFactor: true });
  const submission = parseForm(await readForm(request, context), twoFactorSchema);
  if (submission.status !== "success") return json({ result: submission.reply(), resent: false }, { status: 400 });
  const redirectTo = new URL(request.url).searchParams.get("redirectTo") ?? "";
  if (!auth.session.twoFactorPending) return redirect(safeRedirectPath(redirectTo, homeFor(auth)));

  if (submission.value.intent === "resend") {
    const issued = issueCode(realmFor(context), auth.session);
    if ("error" in issued) {
      return json({ result: submission.reply({ formErrors: [`auth.twoFactor.${issued.error}`] }), resent: false }, { status: 429 });
    }
    await sendTwoFactorCode(context.platform, realmFor(context), auth.person, issued.code);
    return json({ result: submission.reply({ resetForm: true }), resent: true });
  }

  const check = confirmCode(realmFor(context), auth.session.id, submission.value.code);
  if (check === "too_many_attempts") {
    // The sign-in is over (the model deleted its session): back to the password step, cookie cleared.
    const back = safeRedirectPath(redirectTo, "");
    return redirectWithFlash(
      back ? `/auth/login?${new URLSearchParams({ redirectTo: back })}` : "/auth/login",
      "auth.twoFactor.too_many_attempts",
      {
        headers: { "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) },
      },
    );
  }
  if (check !== "ok") {
    return json({ result: submission.reply({ formErrors: [`auth.twoFactor.${check}`] }), resent: false }, { status: 400 });
  }
  // The sign-in is complete: this browser is now a known device of the person (login.tsx).
  return redirect(safeRedirectPath(redirectTo, homeFor(auth)), {
    headers: { "Set-Cookie": await rememberDevice(context, realmFor(context), auth.person) },
  });
}

export default function ConfirmTwoFactor() {
  const { t } = useTranslation();
  const { email } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseForm(formData, twoFactorSchema),
  });
  return (
    <section className="auth-card">
      <h1>{t("auth.twoFactor.title")}</h1>
      <p>{t("auth.twoFactor.intro", { email })}</p>
      {actionData?.resent ? <FormMessage kind="notice">{t("auth.twoFactor.resent")}</FormMessage> : null}
      <Form method="post" {...getFormProps(form)}>
        <FormErrors errors={form.errors} />
        <Field
          label={t("auth.twoFactor.code")}
          field={fields.code}
          type="text"
          autoComplete="one-time-code"
          inputMode="numeric"
          autoFocus
        />
        <button type="submit" name="intent" value="confirm" className="primary" data-testid="code-submit">
          {t("auth.twoFactor.submit")}
        </button>
      </Form>
      <Form method="post" className="secondary-form">
        <button type="submit" name="intent" value="resend" data-testid="code-resend">
          {t("auth.twoFactor.resend")}
        </button>
      </Form>
    </section>
  );
}
