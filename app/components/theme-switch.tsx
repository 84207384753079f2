import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { Theme } from "~/utils/theme";

/** A plain form post: works without JavaScript; with it, Remix revalidates and the page re-themes in place. */
export function ThemeSwitch({ theme, redirectTo }: { theme: Theme; redirectTo: string }) {
  const { t } = useTranslation();
  const next: Theme = theme === "dark" ? "light" : "dark";
  return (
    <Form method="post" action="/theme" className="theme-switch">
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" name="intent" value="set-theme" data-testid="theme-switch">
        {next === "light" ? t("theme.switchToLight") : t("theme.switchToDark")}
      </button>
    </Form>
  );
}
