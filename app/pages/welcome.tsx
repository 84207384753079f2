import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { requireOrganization } from "~/utils/tenant.server";

/** docs/product.md §2 /welcome: the first visit's greeting. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { organization } = requireOrganization(context);
  return { name: organization.name };
}

export default function Welcome() {
  const { t } = useTranslation();
  const { name } = useLoaderData<typeof loader>();
  return (
    <section className="auth-card">
      <h1>{t("welcome.title", { organization: name })}</h1>
      <p>{t("welcome.body")}</p>
      <Link to="/" className="button primary">
        {t("welcome.start")}
      </Link>
    </section>
  );
}
