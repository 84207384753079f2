import { ListLink } from "~/components/list-link";
import type { PathPageData } from "~/screens/paths.server";
import { useTranslation } from "~/utils/translate";

type Step = PathPageData["steps"][number];

/** What a step's state says: done on a day, open with how much is done, opening on a day, or waiting for the one before. */
function StepState({ step, enrolled }: { step: Step; enrolled: boolean }) {
  const { t } = useTranslation();
  const text = !enrolled
    ? step.number === 1 || step.delayDays === 0
      ? null
      : t("paths.state.delay", { count: step.delayDays })
    : step.state === "done"
      ? t("paths.state.done", { date: step.date })
      : step.state === "open"
        ? t("paths.state.open", { done: Math.min(step.completed, step.required), required: step.required })
        : step.state === "waiting"
          ? t("paths.state.waiting", { date: step.date })
          : step.delayDays > 0
            ? t("paths.state.lockedDelay", { number: step.number - 1, count: step.delayDays })
            : t("paths.state.locked", { number: step.number - 1 });
  return text ? (
    <p className="path-step-state" data-testid="step-state">
      {text}
    </p>
  ) : null;
}

/** A step's heading: its number, and a choice's own title. */
function stepTitle(step: Step, t: ReturnType<typeof useTranslation>["t"]) {
  const number = t("paths.stepNumber", { number: step.number });
  return step.kind === "choice" && step.title ? `${number} · ${step.title}` : number;
}

/**
 * A path's steps as a timeline (issue 49): each step numbered, with its state in words and its courses, each a
 * link to its page (a course the viewer cannot see is named as such, not linked), a completed one marked.
 */
export function PathTimeline({ data }: { data: PathPageData }) {
  const { t } = useTranslation();
  const enrolled = data.percent !== null;
  return (
    <section className="path-steps" aria-labelledby="path-steps-title">
      <h2 id="path-steps-title">{t("paths.stepsTitle")}</h2>
      <ol className="path-timeline" data-testid="path-timeline">
        {data.steps.map((step) => (
          <li
            key={step.id}
            className={`path-step step-${enrolled ? step.state : "preview"}`}
            data-state={enrolled ? step.state : "preview"}
          >
            <span className="path-step-marker" aria-hidden="true">
              {enrolled && step.state === "done" ? "✓" : step.number}
            </span>
            <div className="path-step-body">
              <h3>
                {stepTitle(step, t)}
                {enrolled ? <span className="visually-hidden"> — {t(`paths.stateName.${step.state}`)}</span> : null}
              </h3>
              {step.kind === "choice" ? (
                <p className="path-step-choice">{t("paths.choose", { required: step.required, count: step.courses.length })}</p>
              ) : null}
              <StepState step={step} enrolled={enrolled} />
              <ul className="path-step-courses">
                {step.courses.map((course) => (
                  <li key={course.id} className={course.completed ? "completed" : undefined}>
                    {course.title === null ? (
                      <span className="path-course-hidden">{t("paths.hiddenCourse")}</span>
                    ) : (
                      <ListLink to={`/courses/${course.id}`}>{course.title}</ListLink>
                    )}
                    {course.completed ? <span className="path-course-done">{t("paths.courseDone")}</span> : null}
                  </li>
                ))}
              </ul>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
