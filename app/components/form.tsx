import type { FieldMetadata } from "@conform-to/react";
import { getInputProps, getSelectProps } from "@conform-to/react";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { useTranslation } from "~/utils/translate";

/** Error keys from the schemas (or the server), translated; rendered on the server too. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-errors" role="alert">
      {errors.map((error) => (
        <li key={error}>{t(error)}</li>
      ))}
    </ul>
  );
}

export function Field({
  label,
  field,
  type,
  autoComplete,
  autoFocus,
  inputMode,
}: {
  label: string;
  field: FieldMetadata<string>;
  type: "text" | "email" | "password";
  autoComplete?: string;
  autoFocus?: boolean;
  inputMode?: "numeric" | "text" | "email";
}) {
  const props = getInputProps(field, { type });
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      {/* eslint-disable-next-line jsx-a11y/no-autofocus -- only a sign-in step whose one task is this field asks for it */}
      <input {...props} key={props.key} autoComplete={autoComplete} autoFocus={autoFocus} inputMode={inputMode} />
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

/** A message for the whole form: an error (role=alert) or a notice. */
export function FormMessage({ kind = "error", children }: { kind?: "error" | "notice"; children: React.ReactNode }) {
  if (!children) return null;
  return (
    <p className={`form-message form-message-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

/** A language choice among the five interface languages, each shown by its own name. */
export function LanguageField({ label, field }: { label: string; field: FieldMetadata<string> }) {
  return (
    <div className="field">
      <label htmlFor={field.id}>{label}</label>
      <select {...getSelectProps(field)} key={field.key}>
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
      <ErrorList errors={field.errors} />
    </div>
  );
}
