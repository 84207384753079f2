import type { FieldMetadata, SubmissionResult } from "@conform-to/react";
import { getInputProps, getSelectProps, useForm } from "@conform-to/react";
import type { z } from "zod";
import { formMessage, parseForm } from "~/utils/form";
import { LANGUAGE_NAMES, LANGUAGES } from "~/utils/i18n";
import { useTranslation } from "~/utils/translate";

/** One error message: a key (with its number, app/utils/form.ts) translated, or a message already translated. */
export function useErrorText() {
  const { t } = useTranslation();
  return (error: string) => {
    const { key, count } = formMessage(error);
    return count === undefined ? t(key) : t(key, { count });
  };
}

/**
 * Error keys from the schemas (or the server), translated; rendered on the server too. The alert is the box
 * around the list: an alert role on the list itself would take its items out of it.
 */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const text = useErrorText();
  if (!errors?.length) return null;
  return (
    <div id={id} className="field-errors" role="alert">
      <ul>
        {errors.map((error) => (
          <li key={error}>{text(error)}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * A form read with conform and its zod schema (app/utils/form.ts): the server's reply (`lastResult`) shows its
 * messages and keeps the values sent, with JavaScript off too; in the browser the same schema checks a field
 * when it is left and again as it changes, and the whole form before it is sent.
 */
export function useZodForm<Schema extends z.ZodTypeAny>({
  id,
  schema,
  lastResult,
  defaultValue,
}: {
  id?: string;
  schema: Schema;
  lastResult: unknown;
  defaultValue?: Record<string, unknown>;
}) {
  return useForm<z.input<Schema>, z.output<Schema>, string[]>({
    id,
    lastResult: lastResult as SubmissionResult<string[]> | null | undefined,
    defaultValue: defaultValue as never,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseForm(formData, schema),
  });
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
  field: FieldMetadata<unknown>;
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

/**
 * A control of a conform form that keeps its own id (tests and labels name it): its name, the value to show
 * (the one sent back by the server after an error, else the form's default) and its error's description.
 * Render `<ErrorList id={`${id}-error`} …>` beside it; give `key={field.key}` separately.
 */
export function controlProps(field: FieldMetadata<unknown>, id: string) {
  const value = field.initialValue;
  return {
    id,
    name: field.name,
    defaultValue: typeof value === "string" ? value : "",
    "aria-invalid": field.errors?.length ? true : undefined,
    "aria-describedby": field.errors?.length ? `${id}-error` : undefined,
  };
}

/** The errors of the whole form (not of one field), translated, or nothing. */
export function FormErrors({ errors }: { errors?: string[] | null }) {
  const text = useErrorText();
  return <FormMessage>{errors?.length ? errors.map(text).join(" ") : null}</FormMessage>;
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
