import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { LanguageSwitch } from "~/components/language-switch";
import { LeaderboardVisibility } from "~/components/leaderboard-visibility";
import { PersonalDataDownload } from "~/components/personal-data-download";
import { learnerHidden } from "~/models/leaderboard.server";
import { ReminderSubscription } from "~/components/reminder-subscription";
import { remindersOff } from "~/models/reminder-opt-outs.server";
import { ThemeSwitch } from "~/components/theme-switch";
import type { RootData } from "~/root.server";
import { requireUser } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Language and theme for this device, the person's own settings, and the download of their data. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const { person } = await requireUser(request, context);
  return { leaderboardHidden: learnerHidden(db, person.id), remindersOff: remindersOff(db, person.id) };
}

export default function Settings() {
  const { t } = useTranslation();
  const root = useRouteLoaderData("root") as RootData | undefined;
  const data = useLoaderData<typeof loader>();
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
      <LeaderboardVisibility hidden={data.leaderboardHidden} />
      <ReminderSubscription off={data.remindersOff} />
      <PersonalDataDownload />
    </section>
  );
}
