import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ErrorList } from "~/components/form";

/**
 * The courses a quiz is a lesson of (a course whose quizzes are off is marked), attaching it to another
 * course as a new lesson, and linking it to a quiz lesson that has no quiz yet.
 */
export function QuizUsage({
  coursesBase,
  usage,
  courses,
  unlinked,
  attachErrors,
}: {
  coursesBase: string;
  usage: Array<{ lessonId: number; lessonTitle: string; courseId: number; courseTitle: string; allowQuizzes: boolean }>;
  /** Every course, for attaching. */
  courses: Array<{ id: number; title: string }>;
  /** The quiz lessons without a quiz. */
  unlinked: Array<{ lessonId: number; lessonTitle: string; courseTitle: string }>;
  attachErrors: string[] | undefined;
}) {
  const { t } = useTranslation();
  const attached = new Set(usage.map((u) => u.courseId));
  const free = courses.filter((c) => !attached.has(c.id));
  return (
    <div className="panel" data-testid="quiz-usage">
      <h3>{t("quiz.admin.coursesTitle")}</h3>
      {usage.length === 0 ? <p className="empty-state">{t("quiz.admin.notAttached")}</p> : null}
      <ul>
        {usage.map((u) => (
          <li key={u.lessonId}>
            <Link to={`${coursesBase}/${u.courseId}`}>{u.courseTitle}</Link> — {u.lessonTitle}
            {u.allowQuizzes ? null : <span className="badge">{t("quiz.admin.quizzesOff")}</span>}
          </li>
        ))}
      </ul>
      {free.length ? (
        <Form method="post" className="subform">
          <label>
            <span className="visually-hidden">{t("quiz.admin.chooseCourse")}</span>
            <select name="course_id" data-testid="attach-course">
              {free.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
          </label>{" "}
          <button type="submit" name="intent" value="attach" data-testid="attach">
            {t("quiz.admin.attach")}
          </button>
          <ErrorList errors={attachErrors} />
        </Form>
      ) : null}
      {unlinked.length ? (
        <Form method="post" className="subform">
          <label>
            <span className="visually-hidden">{t("quiz.admin.chooseLesson")}</span>
            <select name="lesson_id" data-testid="link-lesson">
              {unlinked.map((l) => (
                <option key={l.lessonId} value={l.lessonId}>
                  {l.courseTitle} — {l.lessonTitle}
                </option>
              ))}
            </select>
          </label>{" "}
          <button type="submit" name="intent" value="link" data-testid="link">
            {t("quiz.admin.link")}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
