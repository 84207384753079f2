import { Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";

/** The 404 page (docs/product.md §2, §8) and the generic failure page, in the visitor's language. */
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
      <p>{t("errors.genericBody")}</p>
      <p>
        <Link to="/">{t("errors.backHome")}</Link>
      </p>
    </section>
  );
}
