import { useTranslation } from "~/utils/translate";

/** Where a person stands with an assigned course (app/models/assignment.server.ts), and "left" for someone no longer in its group. */
export type AssignmentStateName = "not_started" | "in_progress" | "overdue" | "done" | "left";

/**
 * A person's state as a badge, the same on the learner's home, the course page and the assignments screens:
 * a word (never colour alone), with overdue filled so it stands out (app/styles/app.css `.state-badge`).
 * Kept apart from the screens so the learner's pages carry nothing of their forms.
 */
export function StateBadge({ state }: { state: AssignmentStateName }) {
  const { t } = useTranslation();
  return (
    <span className={`state-badge state-${state.replace("_", "-")}`} data-state={state}>
      {t(`assigning.state.${state}`)}
    </span>
  );
}
