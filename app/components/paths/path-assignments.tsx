import { Form, Link } from "@remix-run/react";
import { ErrorList } from "~/components/form";
import type { PathEditorData } from "~/screens/organization-paths.server";
import { useTranslation } from "~/utils/translate";

type Errors = Record<string, string[] | null | undefined> | undefined;
type Choice = { id: number; name: string; email: string };

/** The form that assigns the path to a person (an e-mail or a name, or one of those it found) or a group, with its due rule. */
function AssignForm({ groups, errors, choices }: { groups: PathEditorData["groups"]; errors: Errors; choices?: Choice[] }) {
  const { t } = useTranslation();
  return (
    <Form method="post" className="path-admin-add" aria-labelledby="path-assign-title">
      <h4 id="path-assign-title">{t("paths.assign.title")}</h4>
      <fieldset className="field-group">
        <legend>{t("assigning.form.target")}</legend>
        <label>
          <input type="radio" name="target" value="person" defaultChecked /> {t("assigning.form.toPerson")}
        </label>
        <div className="field">
          <label htmlFor="assign-person">{t("assigning.form.person")}</label>
          <input id="assign-person" name="person" maxLength={254} aria-describedby="assign-person-hint" />
          <p className="hint" id="assign-person-hint">
            {t("assigning.form.personHint")}
          </p>
          <ErrorList id="assign-person-error" errors={errors?.person} />
          {choices?.length ? (
            <fieldset className="field-group">
              <legend>{t("assigning.form.choose")}</legend>
              {choices.map((c) => (
                <label key={c.id} className="checkbox">
                  <input type="radio" name="userId" value={c.id} /> {c.name} ({c.email})
                </label>
              ))}
            </fieldset>
          ) : null}
        </div>
        <label>
          <input type="radio" name="target" value="group" /> {t("assigning.form.toGroup")}
        </label>
        <div className="field">
          <label htmlFor="assign-group">{t("assigning.form.group")}</label>
          <select id="assign-group" name="groupId" defaultValue="">
            <option value="">{t("assigning.form.chooseGroup")}</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
          <ErrorList id="assign-group-error" errors={errors?.groupId} />
        </div>
      </fieldset>
      <fieldset className="field-group">
        <legend>{t("assigning.form.due")}</legend>
        <label>
          <input type="radio" name="due" value="date" defaultChecked /> {t("assigning.form.dueOnDate")}
        </label>
        <div className="field">
          <label htmlFor="assign-date">{t("assigning.form.dueDate")}</label>
          <input id="assign-date" name="dueDate" type="date" />
          <ErrorList id="assign-date-error" errors={errors?.dueDate} />
        </div>
        <label>
          <input type="radio" name="due" value="days" /> {t("assigning.form.dueAfterDays")}
        </label>
        <div className="field">
          <label htmlFor="assign-days">{t("assigning.form.dueDays")}</label>
          <input id="assign-days" name="dueDays" type="number" min={0} max={3650} aria-describedby="assign-days-hint" />
          <p className="hint" id="assign-days-hint">
            {t("assigning.form.dueDaysHint")}
          </p>
          <ErrorList id="assign-days-error" errors={errors?.dueDays} />
        </div>
      </fieldset>
      <ErrorList id="assign-form-error" errors={errors?.[""]} />
      <button type="submit" name="intent" value="assign" className="primary" data-testid="assign-path">
        {t("assigning.form.submit")}
      </button>
    </Form>
  );
}

/**
 * A path's assignments on its editor (issue 49), as a course's: each with whom it is for, its due rule, its people
 * and how many are done, its people's report, removing it; the people who cannot open some of its courses; and the
 * form to assign it. Plain forms and links: it works without JavaScript.
 */
export function PathAssignments({ data, failed }: { data: PathEditorData; failed: { errors: Errors; choices?: Choice[] } | null }) {
  const { t } = useTranslation();
  const here = `${data.base}/${data.path.id}`;
  return (
    <section className="panel" id="assignments" aria-labelledby="path-assignments-title">
      <h3 id="path-assignments-title">{t("paths.assign.list")}</h3>
      {data.assignments.length ? (
        <table className="table" data-testid="path-assignments">
          <thead>
            <tr>
              <th scope="col">{t("assigning.columns.target")}</th>
              <th scope="col">{t("assigning.columns.due")}</th>
              <th scope="col">{t("assigning.columns.assigned")}</th>
              <th scope="col">{t("assigning.columns.done")}</th>
              <th scope="col">{t("assigning.columns.actions")}</th>
            </tr>
          </thead>
          <tbody>
            {data.assignments.map((a) => (
              <tr key={a.id}>
                <td>{a.target === "group" ? (a.groupName ?? t("assigning.target.deletedGroup")) : a.email}</td>
                <td>
                  {a.dueKind === "date" ? t("assigning.due.date", { date: a.dueDate }) : t("assigning.due.days", { count: a.dueDays ?? 0 })}
                </td>
                <td>{a.people}</td>
                <td>{a.done}</td>
                <td className="actions">
                  <Link to={`${here}/report?assignment=${a.id}#people`}>{t("paths.assign.people")}</Link>{" "}
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="assignmentId" value={a.id} />
                    <button type="submit" name="intent" value="unassign" className="danger">
                      {t("paths.admin.removeShort")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="empty-state">{t("paths.assign.none")}</p>
      )}
      {data.cannotOpen.map((c) => (
        <div key={c.courseId} className="notice" role="status" data-testid="path-cannot-open">
          <p>{t("paths.assign.cannotOpen", { count: c.people.length, course: c.title })}</p>
          <ul>
            {c.people.slice(0, 10).map((p) => (
              <li key={p.userId}>
                {`${p.firstName ?? ""} ${p.lastName ?? ""}`.trim() || p.email} — {t(`access.${p.reason}`)}
              </li>
            ))}
          </ul>
        </div>
      ))}
      <AssignForm groups={data.groups} errors={failed?.errors} choices={failed?.choices} />
    </section>
  );
}
