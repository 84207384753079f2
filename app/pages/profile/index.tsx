import { getFormProps } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { z } from "zod";
import { controlProps, ErrorList, FormErrors, useZodForm } from "~/components/form";
import { LeaderboardSummary, leaderboardLinks } from "~/components/leaderboard-summary";
import { learnerSummary } from "~/models/leaderboard.server";
import { withBadgeDates } from "~/screens/leaderboard-page.server";
import { updateOwnProfile } from "~/models/user.server";
import { requireUser } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseForm } from "~/utils/form";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { languageCookie } from "~/utils/i18n.server";
import { requireOrganization } from "~/utils/tenant.server";
import { readForm } from "~/utils/form-data.server";

export const links = leaderboardLinks;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const { person } = await requireUser(request, context);
  return {
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    language: person.language ?? "",
    managedExternally: person.managedExternally,
    leaderboard: withBadgeDates(learnerSummary(db, person.id)),
  };
}

const schema = z.object({
  firstName: z.string().trim().max(100).default(""),
  lastName: z.string().trim().max(100).default(""),
  language: z
    .enum(LANGUAGES)
    .optional()
    .transform((v) => v ?? null),
});

/** Name and language; an account managed by an external platform cannot edit its details (docs/product.md §4). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { db } = requireOrganization(context);
  const { person } = await requireUser(request, context);
  const formData = await readForm(request, context);
  const submission = parseForm(formData, schema);
  // Empty name fields clear the name (the form always sends both); a post without them changes nothing.
  if (!formData.has("firstName") || !formData.has("lastName"))
    return json(submission.reply({ formErrors: ["validation.required"] }), { status: 400 });
  if (person.managedExternally) return json(submission.reply({ formErrors: ["auth.password.managedExternally"] }), { status: 403 });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  updateOwnProfile(db, person.id, submission.value);
  // The device's language choice gives way to the person's new setting.
  return redirectWithFlash("/profile", "flash.profileSaved", {
    headers: { "Set-Cookie": await languageCookie.serialize("", { maxAge: 0 }) },
  });
}

export default function ProfileIndex() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const [form, fields] = useZodForm({
    schema,
    lastResult: useActionData<typeof action>(),
    defaultValue: { firstName: data.firstName, lastName: data.lastName, language: data.language },
  });
  return (
    <section>
      <h1>{t("profile.title")}</h1>
      <FormErrors errors={form.errors} />
      {data.managedExternally ? <p className="hint">{t("auth.password.managedExternally")}</p> : null}
      <Form method="post" className="panel" {...getFormProps(form)}>
        <div className="field">
          <label htmlFor="firstName">{t("users.firstName")}</label>
          <input
            {...controlProps(fields.firstName, "firstName")}
            key={fields.firstName.key}
            maxLength={100}
            disabled={data.managedExternally}
          />
          <ErrorList id="firstName-error" errors={fields.firstName.errors} />
        </div>
        <div className="field">
          <label htmlFor="lastName">{t("users.lastName")}</label>
          <input
            {...controlProps(fields.lastName, "lastName")}
            key={fields.lastName.key}
            maxLength={100}
            disabled={data.managedExternally}
          />
          <ErrorList id="lastName-error" errors={fields.lastName.errors} />
        </div>
        <div className="field">
          <label>{t("profile.email")}</label>
          <p>{data.email}</p>
        </div>
        <div className="field">
          <label htmlFor="language">{t("users.language")}</label>
          <select {...controlProps(fields.language, "language")} key={fields.language.key} disabled={data.managedExternally}>
            <option value="">{t("users.languageDefault")}</option>
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
          <ErrorList id="language-error" errors={fields.language.errors} />
        </div>
        {data.managedExternally ? null : (
          <button type="submit" className="primary">
            {t("profile.save")}
          </button>
        )}
      </Form>
      <LeaderboardSummary summary={data.leaderboard} />
    </section>
  );
}
