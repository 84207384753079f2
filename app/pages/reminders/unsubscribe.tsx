import { json, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FormMessage } from "~/components/form";
import { unsubscribeByToken, unsubscribeTarget } from "~/models/reminder-opt-outs.server";
import { useTranslation } from "~/utils/translate";
import { requireOrganization } from "~/utils/tenant.server";
import { readForm } from "~/utils/form-data.server";

/**
 * One-click unsubscribe from reminders (issue 34; RFC 8058). Every reminder and digest carries
 * `List-Unsubscribe: <…/reminders/unsubscribe?token=…>` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`:
 *  - a POST with `List-Unsubscribe=One-Click` to that address turns the person's reminders off, with no
 *    sign-in, session or same-origin check: the signed token (app/models/reminder-opt-outs.server.ts
 *    `unsubscribeToken`, bound to the person and this organization) is its only credential, and
 *    server/protection.ts lets exactly this path through from other sites, with its cookies dropped;
 *  - a GET only shows what the button would do (mail scanners open links): it never unsubscribes.
 * Sign-in codes and password mails are not affected; /profile/settings turns reminders back on.
 */
const noStore = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex" };

export function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const target = unsubscribeTarget(db, context.platform, organization.id, token);
  return json(
    { organization: organization.name, token: target ? token : "", target: target ? { email: target.email, off: target.off } : null },
    { status: target ? 200 : 404, headers: noStore },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const form = await readForm(request, context);
  if (form.get("List-Unsubscribe") !== "One-Click") return json({ done: false }, { status: 400, headers: noStore });
  const done = unsubscribeByToken(db, context.platform, organization.id, token);
  return json({ done }, { status: done ? 200 : 404, headers: noStore });
}

export const headers: HeadersFunction = ({ actionHeaders, loaderHeaders }) => ({
  "Cache-Control": "no-store",
  "X-Robots-Tag": actionHeaders.get("X-Robots-Tag") ?? loaderHeaders.get("X-Robots-Tag") ?? "noindex",
});

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...matches.flatMap((m) => m.meta ?? []).filter((m) => !("title" in m)),
  { title: data?.organization ?? "" },
  { name: "robots", content: "noindex" },
];

export default function Unsubscribe() {
  const { t } = useTranslation();
  const { organization, token, target } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const done = actionData?.done === true || target?.off === true;
  return (
    <section className="auth-card" data-testid="unsubscribe">
      <h1>{t("reminders.unsubscribe.title")}</h1>
      {!target || actionData?.done === false ? (
        <FormMessage>{t("reminders.unsubscribe.invalid")}</FormMessage>
      ) : done ? (
        <p role="status" data-testid="unsubscribed">
          {actionData?.done
            ? t("reminders.unsubscribe.done", { organization })
            : t("reminders.unsubscribe.already", { email: target.email })}
        </p>
      ) : (
        <Form method="post" action={`/reminders/unsubscribe?token=${encodeURIComponent(token)}`}>
          <p>{t("reminders.unsubscribe.confirm", { email: target.email, organization })}</p>
          <input type="hidden" name="List-Unsubscribe" value="One-Click" />
          <button type="submit" className="primary" data-testid="unsubscribe-button">
            {t("reminders.unsubscribe.button")}
          </button>
        </Form>
      )}
      <p>
        <Link to="/profile/settings">{t("reminders.unsubscribe.settings")}</Link>
      </p>
    </section>
  );
}
