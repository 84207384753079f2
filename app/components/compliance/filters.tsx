import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { COMPLIANCE_COLUMNS, type ComplianceQuery } from "~/utils/compliance-query";
import { ErrorList } from "~/components/form";

export interface ComplianceOptions {
  courses: { id: number; title: string }[];
  /** Learning paths assigned to anyone in scope (issue 49): the people list shows a path's people. */
  paths: { id: number; title: string }[];
  groups: { id: number; name: string }[];
}

/**
 * The report's filters: a GET form, so it works without JavaScript and every view has an address. The
 * report takes a course and a group; the people list also a learning path (instead of a course), a state, due
 * days and a name or e-mail address.
 */
export function ComplianceFilters({
  action,
  options,
  query,
  errors,
  people = false,
}: {
  action: string;
  options: ComplianceOptions;
  query: Partial<ComplianceQuery>;
  errors: Record<string, string[]> | null;
  people?: boolean;
}) {
  const { t } = useTranslation();
  const error = (field: string) => errors?.[field] ?? [];
  const invalid = (field: string) => (error(field).length ? { "aria-invalid": true, "aria-describedby": `compliance-${field}-error` } : {});
  const fieldErrors = (field: string) => <ErrorList id={`compliance-${field}-error`} errors={error(field)} />;
  const known = new Set(["course_id", "path_id", "group_id", "state", "due_from", "due_to", "q"]);
  const other = Object.entries(errors ?? {})
    .filter(([field]) => !known.has(field))
    .flatMap(([, list]) => list);
  // Remounted when the address changes, so the fields show the filters of the view (they are uncontrolled).
  const key = JSON.stringify(query);
  return (
    <Form method="get" action={action} className="filter-bar compliance-filters" aria-label={t("compliance.filters.label")} key={key}>
      <div className="field">
        <label htmlFor="compliance-course">{t("compliance.filters.course")}</label>
        <select id="compliance-course" name="course_id" defaultValue={query.courseId ?? ""} {...invalid("course_id")}>
          <option value="">{t("compliance.filters.allCourses")}</option>
          {options.courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </select>
        {fieldErrors("course_id")}
      </div>
      <div className="field">
        <label htmlFor="compliance-group">{t("compliance.filters.group")}</label>
        <select id="compliance-group" name="group_id" defaultValue={query.groupId ?? ""} {...invalid("group_id")}>
          <option value="">{t("compliance.filters.allGroups")}</option>
          {options.groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
        {fieldErrors("group_id")}
      </div>
      {people && options.paths.length > 0 && (
        <div className="field">
          <label htmlFor="compliance-path">{t("compliance.filters.path")}</label>
          <select id="compliance-path" name="path_id" defaultValue={query.pathId ?? ""} {...invalid("path_id")}>
            <option value="">{t("compliance.filters.noPath")}</option>
            {options.paths.map((p) => (
              <option key={p.id} value={p.id}>
                {p.title}
              </option>
            ))}
          </select>
          {fieldErrors("path_id")}
        </div>
      )}
      {people && (
        <>
          <div className="field">
            <label htmlFor="compliance-state">{t("compliance.filters.state")}</label>
            <select id="compliance-state" name="state" defaultValue={query.state ?? "assigned"} {...invalid("state")}>
              {COMPLIANCE_COLUMNS.map((c) => (
                <option key={c} value={c}>
                  {t(`compliance.columns.${c}`)}
                </option>
              ))}
            </select>
            {fieldErrors("state")}
          </div>
          <div className="field">
            <label htmlFor="compliance-due-from">{t("compliance.filters.dueFrom")}</label>
            <input id="compliance-due-from" type="date" name="due_from" defaultValue={query.dueFrom ?? ""} {...invalid("due_from")} />
            {fieldErrors("due_from")}
          </div>
          <div className="field">
            <label htmlFor="compliance-due-to">{t("compliance.filters.dueTo")}</label>
            <input id="compliance-due-to" type="date" name="due_to" defaultValue={query.dueTo ?? ""} {...invalid("due_to")} />
            {fieldErrors("due_to")}
          </div>
          <div className="field compliance-search">
            <label htmlFor="compliance-q">{t("compliance.filters.search")}</label>
            <input id="compliance-q" type="search" name="q" defaultValue={query.q ?? ""} maxLength={200} {...invalid("q")} />
            {fieldErrors("q")}
          </div>
        </>
      )}
      <div className="compliance-filter-actions">
        <button type="submit" className="button primary">
          {t("compliance.filters.apply")}
        </button>
        <Link to={action} className="button">
          {t("compliance.filters.clear")}
        </Link>
      </div>
      {other.length > 0 && <ErrorList errors={other} />}
    </Form>
  );
}
