import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";

/** Reordering that works without JavaScript: two small form posts (docs/product.md §7 "move"). */
export function MoveButtons({ intent = "move", id, first, last }: { intent?: string; id: number; first: boolean; last: boolean }) {
  const { t } = useTranslation();
  return (
    <span className="move-buttons">
      <Form method="post" className="inline-form">
        <input type="hidden" name="id" value={id} />
        <button
          type="submit"
          name="intent"
          value={`${intent}:up`}
          disabled={first}
          aria-label={t("courses.moveUp")}
          title={t("courses.moveUp")}
          data-testid={`up-${id}`}
        >
          ↑
        </button>
      </Form>
      <Form method="post" className="inline-form">
        <input type="hidden" name="id" value={id} />
        <button
          type="submit"
          name="intent"
          value={`${intent}:down`}
          disabled={last}
          aria-label={t("courses.moveDown")}
          title={t("courses.moveDown")}
          data-testid={`down-${id}`}
        >
          ↓
        </button>
      </Form>
    </span>
  );
}
