import { Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";

/**
 * The 404 page (docs/product.md §2, §8) and the generic failure page, in the visitor's language. A request the
 * page could not take says why: a body that is not a form (415) or that could not be read (400), as
 * app/utils/form-data.server.ts `readForm` answers them.
 */
const REFUSALS: Record<number, string> = { 400: "errors.badRequest", 415: "errors.notAForm" };

export function ErrorPage({ status }: { status: number }) {
  const { t } = useTranslation();
  if (status === 404) {
    return (
      <section className="error-page" data-status="404">
        <h1>{t("errors.notFound")}</h1>
        <p>
          <Link to="/">{t("errors.backHome")}</Link>
        </p>
      </section>
    );
  }
  if (status === 503) {
    return (
      <section className="error-page" data-status="503">
        <h1>{t("errors.unavailable")}</h1>
        <p>{t("errors.unavailableBody")}</p>
      </section>
    );
  }
  return (
    <section className="error-page" data-status={status}>
      <h1>{t("errors.generic")}</h1>
      <p>{t(REFUSALS[status] ?? "errors.genericBody")}</p>
      <p>
        <Link to="/">{t("errors.backHome")}</Link>
      </p>
    </section>
  );
}
