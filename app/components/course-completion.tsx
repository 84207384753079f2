import { Form } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { CourseCompletionNote } from "~/screens/recertification.server";

/**
 * Recertification (issue 34) on the course page: the learner's completion of a course that expires — valid
 * until its day, or expired on it — and, once expired, the button that takes the course again (offered only
 * when the access policy lets them open it: `open`). A form post, so it works without JavaScript.
 */
export function CourseCompletion({ completion, open }: { completion: CourseCompletionNote | null; open: boolean }) {
  const { t } = useTranslation();
  if (!completion) return null;
  return (
    <section className="side-card course-completion" data-testid="course-completion">
      <h2>{t("recertification.course.heading")}</h2>
      <p>{t("recertification.course.completedOn", { date: completion.completedOn })}</p>
      <p>
        <span className={completion.expired ? "validity-note expired" : "validity-note valid"} data-testid="completion-validity">
          {completion.expired
            ? t("recertification.course.expiredOn", { date: completion.expiresOn })
            : t("recertification.course.validUntil", { date: completion.expiresOn })}
        </span>
      </p>
      {completion.renewing ? (
        <p className="muted">
          {completion.expired
            ? t("recertification.course.renewingExpired")
            : t("recertification.course.renewing", { date: completion.expiresOn })}
        </p>
      ) : null}
      {completion.canRetake && open ? (
        <Form method="post">
          <p className="muted">{t("recertification.course.retakeHelp")}</p>
          <button type="submit" name="intent" value="retake" className="primary" data-testid="retake">
            {t("recertification.course.retake")}
          </button>
        </Form>
      ) : null}
    </section>
  );
}
