import { useTranslation } from "~/utils/translate";
import { LESSON_KINDS } from "~/models/vocabulary";
import { controlProps, ErrorList, type useZodForm } from "~/components/form";
import type { lessonFormSchema } from "~/models/forms/courses";

/** A quiz a lesson may show. */
export type QuizChoice = { id: number; title: string };

type LessonMeta = ReturnType<typeof useZodForm<typeof lessonFormSchema>>[1];

/** A lesson's fields: added on the course page, edited on the lesson's own page. */
export function LessonFields({
  fields,
  media,
  quizzes,
}: {
  fields: LessonMeta;
  media: Array<{ id: number; name: string }>;
  quizzes: QuizChoice[];
}) {
  const { t } = useTranslation();
  const props = (name: keyof LessonMeta & string) => controlProps(fields[name], name);
  const errors = (name: keyof LessonMeta & string) => <ErrorList id={`${name}-error`} errors={fields[name].errors} />;
  return (
    <div className="lesson-fields">
      <div className="field" key={fields.lesson_title.key}>
        <label htmlFor="lesson_title">{t("courses.lessonTitle")}</label>
        <input {...props("lesson_title")} maxLength={200} />
        {errors("lesson_title")}
      </div>
      <div className="field" key={fields.lesson_kind.key}>
        <label htmlFor="lesson_kind">{t("courses.lessonKind")}</label>
        <select {...props("lesson_kind")}>
          {LESSON_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`courses.kinds.${kind}`)}
            </option>
          ))}
        </select>
        {errors("lesson_kind")}
      </div>
      <div className="field" key={fields.lesson_body.key}>
        <label htmlFor="lesson_body">{t("courses.lessonBody")}</label>
        <textarea {...props("lesson_body")} rows={4} />
        {errors("lesson_body")}
      </div>
      <div className="field" key={fields.lesson_video_url.key}>
        <label htmlFor="lesson_video_url">{t("courses.videoUrl")}</label>
        <input {...props("lesson_video_url")} type="url" />
        {errors("lesson_video_url")}
      </div>
      <div className="field" key={fields.lesson_file_id.key}>
        <label htmlFor="lesson_file_id">{t("courses.lessonFile")}</label>
        <select {...props("lesson_file_id")}>
          <option value="">—</option>
          {media.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
        {errors("lesson_file_id")}
      </div>
      <div className="field lesson-quiz-field" key={fields.lesson_quiz_id.key}>
        <label htmlFor="lesson_quiz_id">{t("fixes.lessonQuiz.label")}</label>
        <select {...props("lesson_quiz_id")} data-testid="lesson-quiz">
          <option value="">{t("fixes.lessonQuiz.none")}</option>
          {quizzes.map((q) => (
            <option key={q.id} value={q.id}>
              {q.title}
            </option>
          ))}
        </select>
        <p className="hint">{quizzes.length ? t("fixes.lessonQuiz.hint") : t("fixes.lessonQuiz.noQuizzes")}</p>
        {errors("lesson_quiz_id")}
      </div>
    </div>
  );
}
