import { useTranslation } from "~/utils/translate";
import { FormMessage } from "./form";

export interface SsoOptions {
  passwordLogin: boolean;
  drivers: { slug: string; label: string }[];
}

/**
 * The organization's identity providers on the sign-in page: one button per driver (plain links, so they
 * work without JavaScript), the reason a provider sign-in failed, and the "or" before the password form.
 */
export function SsoButtons({ options, error, redirectTo }: { options: SsoOptions | null; error: string | null; redirectTo: string }) {
  const { t } = useTranslation();
  if (!options || (!options.drivers.length && !error)) return null;
  const query = redirectTo ? `?${new URLSearchParams({ redirectTo })}` : "";
  return (
    <div className="sso-sign-in" data-testid="sso-sign-in">
      {error ? <FormMessage>{t(`sso.errors.${error}`)}</FormMessage> : null}
      {!options.passwordLogin ? <p className="hint">{t("sso.login.only")}</p> : null}
      <ul className="sso-buttons">
        {options.drivers.map((driver) => (
          <li key={driver.slug}>
            <a className="button sso-button" href={`/auth/sso/${driver.slug}/redirect${query}`} data-testid={`sso-${driver.slug}`}>
              {driver.label}
            </a>
          </li>
        ))}
      </ul>
      {options.passwordLogin && options.drivers.length ? (
        <p className="sso-or">
          <span>{t("sso.login.or")}</span>
        </p>
      ) : null}
    </div>
  );
}
