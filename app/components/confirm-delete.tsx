import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { Heading } from "./heading";

/**
 * docs/product.md §8: destructive actions ask 'Are you sure? This action cannot be undone'. A page of its own, so
 * it works without JavaScript: the delete button links here, and this form does the deleting.
 */
export function ConfirmDelete({ name, cancelTo }: { name: string; cancelTo: string }) {
  const { t } = useTranslation();
  return (
    <section className="auth-card confirm">
      <Heading>{t("confirm.title")}</Heading>
      <p>{t("confirm.deleting", { name })}</p>
      <Form method="post" className="confirm-actions">
        <input type="hidden" name="intent" value="delete" />
        <button type="submit" className="danger" data-testid="confirm-delete">
          {t("confirm.delete")}
        </button>
        <Link to={cancelTo}>{t("confirm.cancel")}</Link>
      </Form>
    </section>
  );
}
