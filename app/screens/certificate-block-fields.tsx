import type { FieldMetadata } from "@conform-to/react";
import { ErrorList } from "~/components/form";
import { useTranslation } from "~/utils/translate";

/** A field of the template form by its name (the blocks' slots are named `block_<n>_<part>`). */
export type SlotField = (name: string) => FieldMetadata<unknown>;

/** One text block of a certificate template: its text, place, width, size, alignment, colour, weight, and removing it. */
export function BlockFields({ index, isNew, field }: { index: number; isNew: boolean; field: SlotField }) {
  const { t } = useTranslation();
  const n = (name: string) => `block_${index}_${name}`;
  const value = (name: string) => String(field(n(name)).initialValue ?? "");
  const props = (name: string) => ({ name: n(name), defaultValue: value(name), key: field(n(name)).key });
  const { key: textKey, ...text } = props("text");
  return (
    <li className={isNew ? "block-fields new-block" : "block-fields"}>
      <div className="field">
        <label htmlFor={n("text")}>
          {isNew ? t("certificates.editor.newBlock") : t("certificates.editor.blockText", { n: index + 1 })}
        </label>
        <textarea id={n("text")} {...text} key={textKey} rows={1} maxLength={500} />
      </div>
      <div className="field-row compact">
        {(["x", "y", "width"] as const).map((k) => {
          const { key, ...rest } = props(k);
          return (
            <label key={k}>
              {t(`certificates.editor.${k}`)}
              <input type="number" {...rest} key={key} min={k === "width" ? 5 : 0} max={100} step="0.5" />
            </label>
          );
        })}
        <label>
          {t("certificates.editor.size")}
          <input type="number" name={n("size")} defaultValue={value("size")} key={field(n("size")).key} min={6} max={96} />
        </label>
        <label>
          {t("certificates.editor.align")}
          <select name={n("align")} defaultValue={value("align") || "center"} key={field(n("align")).key}>
            <option value="left">{t("certificates.align.left")}</option>
            <option value="center">{t("certificates.align.center")}</option>
            <option value="right">{t("certificates.align.right")}</option>
          </select>
        </label>
        <label>
          {t("certificates.editor.color")}
          <input type="color" name={n("color")} defaultValue={value("color") || "#1f2937"} key={field(n("color")).key} />
        </label>
        <label className="inline-check">
          <input type="checkbox" name={n("bold")} defaultChecked={value("bold") === "on"} key={field(n("bold")).key} />{" "}
          {t("certificates.editor.bold")}
        </label>
        {isNew ? null : (
          <label className="inline-check">
            <input type="checkbox" name={n("remove")} defaultChecked={value("remove") === "on"} key={field(n("remove")).key} />{" "}
            {t("certificates.editor.remove")}
          </label>
        )}
      </div>
      <ErrorList errors={field(`block_${index}`).errors} />
    </li>
  );
}
