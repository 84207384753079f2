import type { LoaderFunctionArgs } from "@remix-run/node";
import { useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "~/components/language-switch";
import { ThemeSwitch } from "~/components/theme-switch";
import type { RootData } from "~/root";
import { requireUser } from "~/utils/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Language and theme for this device. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireOrganization(context);
  await requireUser(request, context);
  return null;
}

export default function Settings() {
  const { t } = useTranslation();
  const root = useRouteLoaderData("root") as RootData | undefined;
  if (!root) return null;
  return (
    <section>
      <h1>{t("profile.settings")}</h1>
      <div className="panel">
        <h2>{t("theme.label")}</h2>
        <ThemeSwitch theme={root.theme} redirectTo="/profile/settings" />
      </div>
      <div className="panel">
        <h2>{t("language.label")}</h2>
        <LanguageSwitch language={root.language} redirectTo="/profile/settings" />
      </div>
    </section>
  );
}
