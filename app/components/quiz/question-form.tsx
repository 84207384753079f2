import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/utils/translate";
import { controlProps, ErrorList, FormErrors, useZodForm } from "~/components/form";
import { OPTION_SLOTS, questionFormSchema } from "~/models/forms/quizzes";
import { QUESTION_TYPES as TYPES } from "~/models/vocabulary";

export interface QuestionValues {
  id?: number;
  type: (typeof TYPES)[number];
  prompt: string;
  explanation: string;
  options: Array<{ text: string; correct: boolean }>;
  correct_answer: boolean | null;
  accepted: string[];
}

/** The form's values of a question: its options in slots, true or false and the accepted answers as text. */
function questionDefaults(values?: QuestionValues): Record<string, string | undefined> {
  const slots = Object.fromEntries(
    Array.from({ length: OPTION_SLOTS }, (_, i) => [
      [`option_text_${i}`, values?.options[i]?.text ?? ""],
      [`option_correct_${i}`, values?.options[i]?.correct ? "on" : undefined],
    ]).flat(),
  );
  return {
    type: values?.type ?? "single",
    prompt: values?.prompt ?? "",
    explanation: values?.explanation ?? "",
    correct_answer: values?.correct_answer === true ? "true" : values?.correct_answer === false ? "false" : "",
    accepted: values?.accepted.join("\n") ?? "",
    ...slots,
  };
}

type QuestionFields = ReturnType<typeof useZodForm<typeof questionFormSchema>>[1];
/** A field of the question form by its name (the options' slots are named `option_text_<n>` and `option_correct_<n>`). */
type SlotField = (name: string) => QuestionFields[keyof QuestionFields];

/**
 * Adding or editing one question. Without JavaScript every type's fields are on the form (each group says
 * which type it is for) and the server uses those of the chosen type; with JavaScript only the chosen
 * type's fields show.
 */
export function QuestionForm({
  values,
  lastResult,
  cancelTo,
}: {
  values?: QuestionValues;
  lastResult?: SubmissionResult<string[]>;
  cancelTo?: string;
}) {
  const { t } = useTranslation();
  const prefix = values?.id ? `q${values.id}` : "new";
  const [form, fields] = useZodForm({
    id: `question-${prefix}`,
    schema: questionFormSchema,
    lastResult,
    defaultValue: questionDefaults(values),
  });
  const slot: SlotField = (name) => fields[name as keyof typeof fields];
  const [type, setType] = useState<string>(String(fields.type.initialValue ?? "single"));
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const show = (...types: string[]) => !enhanced || types.includes(type);
  return (
    <Form
      method="post"
      className="panel question-form"
      data-testid={values?.id ? `edit-question-${values.id}` : "add-question"}
      {...getFormProps(form)}
    >
      <h3>{values?.id ? t("quiz.admin.editQuestion") : t("quiz.admin.addQuestion")}</h3>
      <FormErrors errors={form.errors} />
      {values?.id ? <input type="hidden" name="question_id" value={values.id} /> : null}
      <div className="field">
        <label htmlFor={`${prefix}-type`}>{t("quiz.admin.questionType")}</label>
        <select id={`${prefix}-type`} name={fields.type.name} value={type} onChange={(e) => setType(e.target.value)}>
          {TYPES.map((k) => (
            <option key={k} value={k}>
              {t(`quiz.types.${k}`)}
            </option>
          ))}
        </select>
        <ErrorList errors={fields.type.errors} />
      </div>
      <div className="field" key={fields.prompt.key}>
        <label htmlFor={`${prefix}-prompt`}>{t("quiz.admin.prompt")}</label>
        <textarea {...controlProps(fields.prompt, `${prefix}-prompt`)} rows={2} maxLength={2000} required />
        <ErrorList id={`${prefix}-prompt-error`} errors={fields.prompt.errors} />
      </div>
      {show("single", "multiple") ? <OptionsFieldset slot={slot} /> : null}
      {show("true_false") ? <TrueFalseFieldset fields={fields} /> : null}
      {show("text") ? (
        <div className="field" key={fields.accepted.key}>
          <label htmlFor={`${prefix}-accepted`}>{t("quiz.admin.acceptedLegend")}</label>
          <textarea {...controlProps(fields.accepted, `${prefix}-accepted`)} rows={3} />
          <p className="hint">{t("quiz.admin.acceptedHelp")}</p>
          <ErrorList id={`${prefix}-accepted-error`} errors={fields.accepted.errors} />
        </div>
      ) : null}
      <div className="field" key={fields.explanation.key}>
        <label htmlFor={`${prefix}-explanation`}>{t("quiz.admin.explanation")}</label>
        <textarea {...controlProps(fields.explanation, `${prefix}-explanation`)} rows={2} maxLength={5000} />
        <ErrorList id={`${prefix}-explanation-error`} errors={fields.explanation.errors} />
      </div>
      <button
        type="submit"
        name="intent"
        value={values?.id ? "save-question" : "add-question"}
        className="primary"
        data-testid="save-question"
      >
        {values?.id ? t("quiz.admin.saveQuestion") : t("quiz.admin.addQuestion")}
      </button>{" "}
      {cancelTo ? <Link to={cancelTo}>{t("confirm.cancel")}</Link> : null}
    </Form>
  );
}

/** The options of a single or multiple choice question, each a text and whether it is correct. */
function OptionsFieldset({ slot }: { slot: SlotField }) {
  const { t } = useTranslation();
  return (
    <fieldset className="field">
      <legend>{t("quiz.admin.optionsLegend")}</legend>
      {Array.from({ length: OPTION_SLOTS }, (_, i) => (
        <div className="quiz-option-row" key={i}>
          <input
            type="checkbox"
            name={`option_correct_${i}`}
            defaultChecked={slot(`option_correct_${i}`).initialValue === "on"}
            key={slot(`option_correct_${i}`).key}
            aria-label={t("quiz.admin.optionCorrect", { n: i + 1 })}
          />
          <input
            type="text"
            name={`option_text_${i}`}
            defaultValue={String(slot(`option_text_${i}`).initialValue ?? "")}
            key={slot(`option_text_${i}`).key}
            maxLength={500}
            aria-label={t("quiz.admin.optionText", { n: i + 1 })}
            placeholder={t("quiz.admin.optionText", { n: i + 1 })}
          />
        </div>
      ))}
      <p className="hint">{t("quiz.admin.optionsHelp")}</p>
      <ErrorList errors={slot("options").errors} />
    </fieldset>
  );
}

/** The right answer of a true-or-false question. */
function TrueFalseFieldset({ fields }: { fields: QuestionFields }) {
  const { t } = useTranslation();
  return (
    <fieldset className="field">
      <legend>{t("quiz.admin.trueFalseLegend")}</legend>
      <label>
        <input
          type="radio"
          name="correct_answer"
          value="true"
          defaultChecked={fields.correct_answer.initialValue === "true"}
          key={`${fields.correct_answer.key}-true`}
        />{" "}
        {t("quiz.player.true")}
      </label>{" "}
      <label>
        <input
          type="radio"
          name="correct_answer"
          value="false"
          defaultChecked={fields.correct_answer.initialValue === "false"}
          key={`${fields.correct_answer.key}-false`}
        />{" "}
        {t("quiz.player.false")}
      </label>
      <ErrorList errors={fields.correct_answer.errors} />
    </fieldset>
  );
}
