import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { LANGUAGES, LANGUAGE_NAMES, type Language } from "~/utils/i18n";

/**
 * A select and a button, so it works without JavaScript. The post reloads the whole document, which
 * brings the new language's strings with it.
 */
export function LanguageSwitch({ language, redirectTo }: { language: Language; redirectTo: string }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action="/language" reloadDocument className="language-switch">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label>
        <span className="visually-hidden">{t("language.label")}</span>
        <select name="language" defaultValue={language} data-testid="language-select">
          {LANGUAGES.map((lng) => (
            <option key={lng} value={lng} lang={lng}>
              {LANGUAGE_NAMES[lng]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" data-testid="language-submit">
        {t("language.apply")}
      </button>
    </Form>
  );
}
