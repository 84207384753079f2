import { useTranslation } from "~/utils/translate";
import { ErrorList } from "~/components/form";
import { ProviderImage } from "~/components/provider-image";

/**
 * The cover of a category or carousel, chosen from the organization's file library (images only), with
 * the current cover shown beside the choice. A plain select: works without JavaScript.
 */
export function CoverField({
  id,
  value,
  preview,
  images,
  errors,
}: {
  id: string;
  /** The file chosen: the saved cover, or the one sent back with an error (a string then). */
  value: number | string | null | undefined;
  preview: string | null;
  images: Array<{ id: number; name: string }>;
  errors?: string[] | null;
}) {
  const { t } = useTranslation();
  return (
    <div className="field cover-field">
      <label htmlFor={id}>{t("browse.cover")}</label>
      <div className="cover-choice">
        {preview ? (
          <ProviderImage src={preview} bucket="cover" width={160} className="cover-preview" />
        ) : (
          <span className="cover-preview cover-none">{t("browse.noCover")}</span>
        )}
        <select
          id={id}
          name="cover_file_id"
          defaultValue={value ? String(value) : ""}
          key={value ? String(value) : ""}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? `${id}-error ${id}-hint` : `${id}-hint`}
        >
          <option value="">—</option>
          {images.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </div>
      <p className="hint" id={`${id}-hint`}>
        {t("browse.coverHint")}
      </p>
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}
