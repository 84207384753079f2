import { Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { AccessDenied } from "~/access/courses";

/** docs/product.md §8's access messages, where the rule applies. */
export function AccessMessage({ reason, loginUrl }: { reason: AccessDenied; loginUrl: string }) {
  const { t } = useTranslation();
  return (
    <p className="access-message" role="status" data-testid="access-message" data-reason={reason}>
      {t(`access.${reason}`)}
      {reason === "login" ? (
        <>
          {" "}
          <Link to={loginUrl} className="button primary">
            {t("access.signIn")}
          </Link>
        </>
      ) : null}
    </p>
  );
}
