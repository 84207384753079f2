import { useTranslation } from "~/utils/translate";

/**
 * /profile/settings: the person's own data in this organization as one JSON file (/profile/data). A plain
 * link with `download`: the browser saves the file, with or without JavaScript, and the page stays.
 */
export function PersonalDataDownload() {
  const { t } = useTranslation();
  return (
    <div className="panel" data-testid="personal-data">
      <h2>{t("personalData.title")}</h2>
      <p>{t("personalData.explanation")}</p>
      <a href="/profile/data" download className="button" data-testid="download-personal-data">
        {t("personalData.download")}
      </a>
    </div>
  );
}
