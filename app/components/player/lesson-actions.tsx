import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { LessonPageData } from "~/screens/lesson-page.server";
import { Icon } from "./icons";

/**
 * Under an open lesson: "Mark as complete" (a plain form; SCORM, xAPI and cmi5 packages and quizzes complete themselves) or
 * the word that it is done, the previous and next lessons, and the lesson's text.
 */
export function LessonActions({ data }: { data: LessonPageData }) {
  const { t } = useTranslation();
  const { lesson, course } = data;
  return (
    <>
      <div className="lesson-actions">
        {lesson.completed ? (
          <p className="lesson-done" data-testid="lesson-completed">
            <Icon name="check" /> {t("learn.lessonCompleted")}
          </p>
        ) : lesson.kind === "scorm" || lesson.kind === "package" || lesson.kind === "quiz" ? null : (
          <Form method="post">
            <button type="submit" name="intent" value="complete" className="primary complete-button" data-testid="complete">
              <Icon name="check" /> {t("learn.markComplete")}
            </button>
          </Form>
        )}
        <nav className="lesson-nav" aria-label={t("learn.episodes")}>
          {data.previousId ? (
            <Link to={`/courses/${course.id}/lessons/${data.previousId}`} className="button" rel="prev">
              <Icon name="arrowLeft" /> {t("learn.previous")}
            </Link>
          ) : null}
          {data.nextId ? (
            <Link to={`/courses/${course.id}/lessons/${data.nextId}`} className="button" rel="next">
              {t("learn.next")} <Icon name="arrowRight" />
            </Link>
          ) : null}
        </nav>
      </div>
      {lesson.body ? (
        <div
          className={lesson.kind === "text" ? "rich-text lesson-body reading" : "rich-text lesson-body"}
          dangerouslySetInnerHTML={{ __html: lesson.body }}
        />
      ) : null}
    </>
  );
}
