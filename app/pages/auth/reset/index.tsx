import { getFormProps, useForm } from "@conform-to/react";
import { json, type ActionFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { parseForm } from "~/utils/form";
import { Field } from "~/components/form";
import { sendPasswordReset } from "~/models/auth/mail.server";
import { requestPasswordReset } from "~/models/auth/tokens.server";
import { emailSchema } from "~/utils/auth-schemas";
import { realmFor } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm } from "~/utils/form-data.server";

/**
 * The answer is the same whether or not the address is known (docs/product.md §8), and the mail is sent after the
 * reply so that the time taken does not tell either.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseForm(await readForm(request, context), emailSchema);
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const realm = realmFor(context);
  const issued = requestPasswordReset(realm, submission.value.email);
  if (issued) {
    sendPasswordReset(context.platform, realm, issued.person, issued.token).catch((error) =>
      context.platform.log.error({ error: String(error) }, "reset mail failed"),
    );
  }
  return redirectWithFlash("/auth/reset", "auth.reset.sent");
}

export default function RequestReset() {
  const { t } = useTranslation();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseForm(formData, emailSchema),
  });
  return (
    <section className="auth-card">
      <h1>{t("auth.reset.title")}</h1>
      <p>{t("auth.reset.intro")}</p>
      <Form method="post" {...getFormProps(form)}>
        <Field label={t("auth.login.email")} field={fields.email} type="email" autoComplete="email" autoFocus />
        <button type="submit" className="primary">
          {t("auth.reset.submit")}
        </button>
      </Form>
    </section>
  );
}
