import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { z } from "zod";
import { ErrorList, FormMessage } from "~/components/form";
import { LeaderboardSummary, leaderboardLinks } from "~/components/leaderboard-summary";
import { learnerSummary } from "~/models/leaderboard.server";
import { updateOwnProfile } from "~/models/user.server";
import { requireUser } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { languageCookie } from "~/utils/i18n.server";
import { requireOrganization } from "~/utils/tenant.server";

export const links = leaderboardLinks;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const { person } = await requireUser(request, context);
  return { firstName: person.firstName, lastName: person.lastName, email: person.email, language: person.language ?? "", managedExternally: person.managedExternally, leaderboard: learnerSummary(db, person.id) };
}

const schema = z.object({
  firstName: z.string().trim().max(100),
  lastName: z.string().trim().max(100),
  language: z.enum(["", ...LANGUAGES]).transform((v) => v || null),
});

/** Name and language; an account managed by an external platform cannot edit its details (docs/product.md §4). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { db } = requireOrganization(context);
  const { person } = await requireUser(request, context);
  if (person.managedExternally) return json({ errors: { _: ["auth.password.managedExternally"] } }, { status: 403 });
  const parsed = schema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return json({ errors: { _: ["validation.invalid"] } }, { status: 400 });
  updateOwnProfile(db, person.id, parsed.data);
  // The device's language choice gives way to the person's new setting.
  return redirectWithFlash("/profile", "flash.profileSaved", { headers: { "Set-Cookie": await languageCookie.serialize("", { maxAge: 0 }) } });
}

export default function ProfileIndex() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const errors = useActionData<{ errors: Record<string, string[]> }>()?.errors ?? {};
  return (
    <section>
      <h1>{t("profile.title")}</h1>
      <FormMessage>{errors._?.map((e) => t(e)).join(" ")}</FormMessage>
      {data.managedExternally ? <p className="hint">{t("auth.password.managedExternally")}</p> : null}
      <Form method="post" className="panel">
        <div className="field">
          <label htmlFor="firstName">{t("users.firstName")}</label>
          <input id="firstName" name="firstName" defaultValue={data.firstName} maxLength={100} disabled={data.managedExternally} />
        </div>
        <div className="field">
          <label htmlFor="lastName">{t("users.lastName")}</label>
          <input id="lastName" name="lastName" defaultValue={data.lastName} maxLength={100} disabled={data.managedExternally} />
        </div>
        <div className="field">
          <label>{t("profile.email")}</label>
          <p>{data.email}</p>
        </div>
        <div className="field">
          <label htmlFor="language">{t("users.language")}</label>
          <select id="language" name="language" defaultValue={data.language} disabled={data.managedExternally}>
            <option value="">{t("users.languageDefault")}</option>
            {LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </select>
          <ErrorList errors={errors.language} />
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
