import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/utils/translate";
import { ErrorList } from "~/components/form";

export const OPTION_SLOTS = 6;
const TYPES = ["single", "multiple", "true_false", "text"] as const;

export interface QuestionValues {
  id?: number;
  type: (typeof TYPES)[number];
  prompt: string;
  explanation: string;
  options: Array<{ text: string; correct: boolean }>;
  correct_answer: boolean | null;
  accepted: string[];
}

/**
 * Adding or editing one question. Without JavaScript every type's fields are on the form (each group says
 * which type it is for) and the server uses those of the chosen type; with JavaScript only the chosen
 * type's fields show.
 */
export function QuestionForm({ values, errors, cancelTo }: { values?: QuestionValues; errors: Record<string, string[]>; cancelTo?: string }) {
  const { t } = useTranslation();
  const [type, setType] = useState<string>(values?.type ?? "single");
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const show = (...types: string[]) => !enhanced || types.includes(type);
  const prefix = values?.id ? `q${values.id}` : "new";
  return (
    <Form method="post" className="panel question-form" data-testid={values?.id ? `edit-question-${values.id}` : "add-question"}>
      <h3>{values?.id ? t("quiz.admin.editQuestion") : t("quiz.admin.addQuestion")}</h3>
      {values?.id ? <input type="hidden" name="question_id" value={values.id} /> : null}
      <div className="field">
        <label htmlFor={`${prefix}-type`}>{t("quiz.admin.questionType")}</label>
        <select id={`${prefix}-type`} name="type" value={type} onChange={(e) => setType(e.target.value)}>
          {TYPES.map((k) => (
            <option key={k} value={k}>
              {t(`quiz.types.${k}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-prompt`}>{t("quiz.admin.prompt")}</label>
        <textarea id={`${prefix}-prompt`} name="prompt" defaultValue={values?.prompt} rows={2} maxLength={2000} required />
        <ErrorList errors={errors.prompt} />
      </div>
      {show("single", "multiple") ? (
        <fieldset className="field">
          <legend>{t("quiz.admin.optionsLegend")}</legend>
          {Array.from({ length: OPTION_SLOTS }, (_, i) => (
            <div className="quiz-option-row" key={i}>
              <input type="checkbox" name={`option_correct_${i}`} defaultChecked={values?.options[i]?.correct} aria-label={t("quiz.admin.optionCorrect", { n: i + 1 })} />
              <input type="text" name={`option_text_${i}`} defaultValue={values?.options[i]?.text} maxLength={500} aria-label={t("quiz.admin.optionText", { n: i + 1 })} placeholder={t("quiz.admin.optionText", { n: i + 1 })} />
            </div>
          ))}
          <p className="hint">{t("quiz.admin.optionsHelp")}</p>
          <ErrorList errors={errors.options} />
        </fieldset>
      ) : null}
      {show("true_false") ? (
        <fieldset className="field">
          <legend>{t("quiz.admin.trueFalseLegend")}</legend>
          <label>
            <input type="radio" name="correct_answer" value="true" defaultChecked={values?.correct_answer === true} /> {t("quiz.player.true")}
          </label>{" "}
          <label>
            <input type="radio" name="correct_answer" value="false" defaultChecked={values?.correct_answer === false} /> {t("quiz.player.false")}
          </label>
          <ErrorList errors={errors.correct_answer} />
        </fieldset>
      ) : null}
      {show("text") ? (
        <div className="field">
          <label htmlFor={`${prefix}-accepted`}>{t("quiz.admin.acceptedLegend")}</label>
          <textarea id={`${prefix}-accepted`} name="accepted" defaultValue={values?.accepted.join("\n")} rows={3} />
          <p className="hint">{t("quiz.admin.acceptedHelp")}</p>
          <ErrorList errors={errors.accepted} />
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={`${prefix}-explanation`}>{t("quiz.admin.explanation")}</label>
        <textarea id={`${prefix}-explanation`} name="explanation" defaultValue={values?.explanation} rows={2} maxLength={5000} />
      </div>
      <button type="submit" name="intent" value={values?.id ? "save-question" : "add-question"} className="primary" data-testid="save-question">
        {values?.id ? t("quiz.admin.saveQuestion") : t("quiz.admin.addQuestion")}
      </button>{" "}
      {cancelTo ? <Link to={cancelTo}>{t("confirm.cancel")}</Link> : null}
    </Form>
  );
}
