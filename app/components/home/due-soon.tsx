import { ListLink } from "~/components/list-link";
import { StateBadge } from "~/components/assignment-state";
import { useTranslation } from "~/utils/translate";
import type { OrganizationHome } from "./home-data";

/**
 * "Due soon" (issue 34): the courses assigned to the learner and not done yet, by due day (overdue first),
 * then those done lately; each with its date and state in words, overdue standing out. Plain markup of its
 * own rather than course cards, so the kept cards (docs/decisions/030-kept-markup.md) stay as they are.
 */
export function DueSoon({ items }: { items: OrganizationHome["dueSoon"] }) {
  const { t } = useTranslation();
  return (
    <section className="row due-soon" aria-labelledby="due-soon-title" data-testid="due-soon">
      <div className="row-head">
        <h2 id="due-soon-title">{t("assigning.learner.title")}</h2>
      </div>
      {/* A row like the others (scrolls sideways when long); focusable so the keyboard can scroll it (axe: scrollable-region-focusable). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus */}
      <ul className="row-track due-list" tabIndex={0} aria-labelledby="due-soon-title">
        {items.map((item) => (
          <li
            key={`${item.path ? "path" : "course"}-${item.id}`}
            className={`due-item due-${item.state.replace("_", "-")}`}
            data-course={item.path ? undefined : item.title}
            data-path={item.path ? item.title : undefined}
            data-state={item.state}
          >
            <ListLink to={item.path ? `/paths/${item.id}` : `/courses/${item.id}`} className="due-link">
              {item.path ? <span className="path-kicker">{t("paths.kicker")} </span> : null}
              {item.title}
            </ListLink>
            <p className="due-date">
              <StateBadge state={item.state} />
              <span>
                {item.done
                  ? t("assigning.learner.dueDone", { date: item.due, done: item.done })
                  : t("assigning.learner.dueOn", { date: item.due })}
              </span>
            </p>
            {item.locked ? <p className="due-locked">{t("access.prerequisite")}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
