import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";

/** docs/product.md §4: a signed-in person without a role in this organization gets a clear page, not a loop. */
export async function loader({ context }: LoaderFunctionArgs) {
  const auth = context.viewer;
  if (!auth.via) throw redirect("/auth/login");
  return null;
}

export default function NoAccess() {
  const { t } = useTranslation();
  return (
    <section className="auth-card">
      <h1>{t("auth.noAccess.title")}</h1>
      <p>{t("auth.noAccess.body")}</p>
      <Form method="post" action="/auth/logout">
        <button type="submit">{t("auth.logout.submit")}</button>
      </Form>
    </section>
  );
}
