import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { revokeSession } from "~/models/auth/session.server";
import { sessionCookie, realmFor } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm } from "~/utils/form-data.server";

/** A GET only asks: signing out changes state, so it takes a post (a link prefetch must not sign anyone out). */
export async function loader({ context }: LoaderFunctionArgs) {
  if (!context.viewer.via) throw redirect("/auth/login");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await readForm(request, context);
  const auth = context.viewer;
  if (auth?.session) revokeSession(realmFor(context), auth.session.id);
  return redirectWithFlash("/auth/login", "auth.logout.done", {
    headers: { "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) },
  });
}

export default function Logout() {
  const { t } = useTranslation();
  return (
    <section className="auth-card">
      <h1>{t("auth.logout.title")}</h1>
      <p>{t("auth.logout.confirm")}</p>
      <Form method="post">
        <button type="submit" className="primary" data-testid="logout-confirm">
          {t("auth.logout.submit")}
        </button>
      </Form>
    </section>
  );
}
