import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { requireUser } from "~/utils/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/** The learner's certificates; issuing them belongs to the certificates work, so this lists none yet. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireOrganization(context);
  await requireUser(request, context);
  return null;
}

export default function Certificates() {
  const { t } = useTranslation();
  return (
    <section>
      <h1>{t("profile.certificates")}</h1>
      <p className="empty-state">{t("profile.noCertificates")}</p>
    </section>
  );
}
