import { useTranslation } from "~/utils/translate";
import { formatDate } from "~/utils/dates";
import type { CompliancePerson } from "~/models/compliance.server";

/** A person of the report as the page has it: the model's, its completion time as sent to the browser. */
export type PersonRow = Omit<CompliancePerson, "started" | "completed_at"> & { completed_at: string | Date | null };

/** A local day (YYYY-MM-DD) as a date in the reader's language. */
export const formatDay = (day: string, locale: string) => formatDate(`${day}T00:00:00Z`, { locale, timeZone: "UTC", dateStyle: "medium" });

/** The people behind a number: who, which course (or learning path), their state today, when it is (was) due, done and expiring. */
export function PeopleTable({
  people,
  locale,
  timeZone,
  path = false,
}: {
  people: PersonRow[];
  locale: string;
  timeZone: string;
  /** A learning path's people (every row names the path). */
  path?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="table-scroll">
      <table className="table compliance-people" data-testid="compliance-people">
        <thead>
          <tr>
            <th scope="col">{t("compliance.people.person")}</th>
            <th scope="col">{t(path ? "compliance.filters.path" : "compliance.people.course")}</th>
            <th scope="col">{t("compliance.people.state")}</th>
            <th scope="col">{t("compliance.people.due")}</th>
            <th scope="col">{t("compliance.people.completed")}</th>
            <th scope="col">{t("compliance.people.expires")}</th>
          </tr>
        </thead>
        <tbody>
          {people.map((p) => {
            const name = [p.first_name, p.last_name].filter(Boolean).join(" ");
            return (
              <tr
                key={`${p.user_id}-${p.course_id ?? `path-${p.path_id}`}`}
                data-user={p.user_id}
                data-course={p.course_id ?? undefined}
                data-path={p.path_id ?? undefined}
              >
                <th scope="row">
                  <span className="person-name">{name || p.email}</span>
                  {name && <span className="person-email">{p.email}</span>}
                </th>
                <td>{p.path_title ?? p.course_title}</td>
                <td>
                  <span className={`state-badge state-${p.state}`} data-state={p.state}>
                    {t(`compliance.columns.${p.state}`)}
                  </span>
                </td>
                <td className="nowrap">{formatDay(p.due_on, locale)}</td>
                <td className="nowrap">{p.completed_at ? formatDate(p.completed_at, { locale, timeZone, dateStyle: "medium" }) : "—"}</td>
                <td className="nowrap">{p.expires_on ? formatDay(p.expires_on, locale) : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
