import { getFormProps } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { controlProps, ErrorList, FormErrors, useZodForm } from "~/components/form";
import { StateBadge } from "~/components/assignment-state";
import { Heading } from "~/components/heading";
import { assignCourseFormSchema, assignFormSchema, MAX_DUE_DAYS } from "~/models/forms/assignments";
import { ASSIGNMENT_PEOPLE_LIST, PERSON_STATES } from "~/models/forms/assignment-people-list";
import { ListControls, ListPager } from "~/components/list/list-controls";
import { listSearch } from "~/utils/list-query";
import type { AssignReply, AssignmentRow, courseAssignmentsLoader, myGroupAssignmentsLoader } from "./assignments.server";

/**
 * The assignments screens (issue 34): a course's, and a group's (organization admins beside the group's page,
 * group admins from their own group). The loaders and actions are app/screens/assignments.server.ts; nothing
 * here touches that module's values, which are empty in the browser.
 */
type CourseData = Awaited<ReturnType<ReturnType<typeof courseAssignmentsLoader>>>;
type GroupData = ReturnType<typeof myGroupAssignmentsLoader>;
type Data = SerializeFrom<CourseData | GroupData>;
type Row = SerializeFrom<AssignmentRow>;
type Reason = Row["cannotOpen"]["named"][number]["reason"];

const STATES = PERSON_STATES;

export function Assignments() {
  const { t } = useTranslation();
  const data = useLoaderData<CourseData | GroupData>();
  return (
    <section className="assignments-screen" data-testid="assignments">
      <div className="toolbar">
        <Heading>{t("assigning.title", { name: data.title })}</Heading>
        <Link to={data.back}>{data.scope === "course" ? t("assigning.backToCourse") : t("assigning.backToGroup")}</Link>
      </div>
      <p className="assignments-intro">{data.scope === "course" ? t("assigning.introCourse") : t("assigning.introGroup")}</p>
      {data.draft ? (
        <p className="assignment-warning" role="note" data-testid="draft-warning">
          {t("assigning.draftWarning")}
        </p>
      ) : null}
      {data.removing ? <RemoveConfirm data={data} /> : null}
      <AssignmentList data={data} />
      {data.selected ? <People data={data} /> : null}
      <AssignForm data={data} />
    </section>
  );
}

/** Who an assignment is for: a person, a group or rule group, or a group deleted since. */
function TargetLabel({ row }: { row: Row }) {
  const { t } = useTranslation();
  if (row.person)
    return (
      <>
        <span className="user-name">{row.person.name}</span> <span className="badge">{t("assigning.target.person")}</span>
        <br />
        <small className="hint">{row.person.email}</small>
      </>
    );
  if (row.groupName === null) return <em>{t("assigning.target.deletedGroup")}</em>;
  return (
    <>
      <span className="user-name">{row.groupName}</span>{" "}
      <span className="badge">{row.ruleGroup ? t("assigning.target.ruleGroup") : t("assigning.target.group")}</span>
    </>
  );
}

function DueRule({ due }: { due: Row["due"] }) {
  const { t } = useTranslation();
  return <>{due.kind === "date" ? t("assigning.due.date", { date: due.date }) : t("assigning.due.days", { count: due.days })}</>;
}

function ReasonText({ reason }: { reason: Reason | "draft" }) {
  const { t } = useTranslation();
  return <>{t(`assigning.reasons.${reason}`)}</>;
}

function AssignmentList({ data }: { data: Data }) {
  const { t } = useTranslation();
  const forCourse = data.scope === "course";
  if (data.assignments.length === 0)
    return (
      <p className="empty-state panel" data-testid="no-assignments">
        {t("assigning.empty")}
      </p>
    );
  const columns = 6;
  return (
    <div className="assignments-scroll">
      <table className="table assignments-table" data-testid="assignment-list">
        <caption className="visually-hidden">{t("assigning.listCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{forCourse ? t("assigning.columns.target") : t("assigning.columns.course")}</th>
            <th scope="col">{t("assigning.columns.due")}</th>
            <th scope="col" className="number">
              {t("assigning.columns.assigned")}
            </th>
            <th scope="col" className="number">
              {t("assigning.columns.done")}
            </th>
            <th scope="col" className="number">
              {t("assigning.columns.overdue")}
            </th>
            <th scope="col">
              <span className="visually-hidden">{t("assigning.columns.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data.assignments.map((row) => {
            const label = forCourse ? (row.person?.name ?? row.groupName ?? "") : row.courseTitle;
            return [
              <tr
                key={row.id}
                data-assignment={row.id}
                data-target={row.person?.email ?? row.groupName ?? ""}
                className={data.selected?.assignment.id === row.id ? "selected" : undefined}
              >
                <td>{forCourse ? <TargetLabel row={row} /> : <span className="user-name">{row.courseTitle}</span>}</td>
                <td>
                  <DueRule due={row.due} />
                </td>
                <td className="number" data-count="assigned">
                  {row.assigned}
                </td>
                <td className="number" data-count="done">
                  {row.done}
                </td>
                <td className="number" data-count="overdue">
                  {row.overdue ? <span className="state-badge state-overdue">{row.overdue}</span> : 0}
                </td>
                <td className="actions">
                  <Link to={`?assignment=${row.id}#people`} aria-label={t("assigning.showPeopleOf", { name: label })}>
                    {t("assigning.showPeople")}
                  </Link>{" "}
                  <Link
                    to={`?remove=${row.id}#remove`}
                    className="button danger small"
                    aria-label={t("assigning.removeOf", { name: label })}
                    data-testid="remove-assignment"
                  >
                    {t("assigning.remove")}
                  </Link>
                </td>
              </tr>,
              row.cannotOpen.total ? (
                <tr key={`${row.id}-warning`} className="assignment-warning-row">
                  <td colSpan={columns}>
                    <div className="assignment-warning" data-testid="cannot-open">
                      <strong>{t("assigning.cannotOpen.count", { count: row.cannotOpen.total })}</strong>
                      <ul>
                        {row.cannotOpen.named.map((p) => (
                          <li key={p.userId} data-person={p.email}>
                            {p.name} ({p.email}): <ReasonText reason={p.reason} />
                          </li>
                        ))}
                      </ul>
                      {row.cannotOpen.total > row.cannotOpen.named.length ? (
                        <Link to={`?assignment=${row.id}#people`}>
                          {t("assigning.cannotOpen.more", { count: row.cannotOpen.total - row.cannotOpen.named.length })}
                        </Link>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ) : null,
            ];
          })}
        </tbody>
      </table>
    </div>
  );
}

function People({ data }: { data: Data }) {
  const { t } = useTranslation();
  const selected = data.selected!;
  const row = selected.assignment;
  // The list's addresses keep the assignment shown (app/models/forms/assignment-people-list.ts).
  const here = `?assignment=${row.id}`;
  const at = (change: Partial<typeof selected.query>, filters = selected.query.filters) => {
    const rest = listSearch({ ...selected.query, filters }, ASSIGNMENT_PEOPLE_LIST, change).slice(1);
    return `${here}${rest ? `&${rest}` : ""}#people`;
  };
  return (
    <section className="panel assignment-people" id="people" aria-labelledby="people-title" data-testid="assignment-people">
      <Heading sub={1} id="people-title">
        {t("assigning.people.title", {
          name: data.scope === "course" ? (row.person?.name ?? row.groupName ?? t("assigning.target.deletedGroup")) : row.courseTitle,
        })}
      </Heading>
      <p className="hint">
        <DueRule due={row.due} />
      </p>
      {selected.cannotOpen.length ? (
        <div className="assignment-warning" data-testid="people-cannot-open">
          <strong>{t("assigning.cannotOpen.count", { count: selected.cannotOpenTotal })}</strong>
          <p>{t("assigning.cannotOpen.explain")}</p>
          <ul>
            {selected.cannotOpen.map((p) => (
              <li key={p.userId} data-person={p.email}>
                {p.name} ({p.email}): <ReasonText reason={p.reason} />
              </li>
            ))}
          </ul>
          {selected.cannotOpenTotal > selected.cannotOpen.length ? (
            <p>{t("assigning.cannotOpen.more", { count: selected.cannotOpenTotal - selected.cannotOpen.length })}</p>
          ) : null}
        </div>
      ) : null}
      <nav className="state-filter" aria-label={t("assigning.people.filter")}>
        <Link to={at({ page: 1 }, {})} aria-current={selected.state === null ? "page" : undefined}>
          {t("assigning.people.all")} <span className="count">{STATES.reduce((sum, s) => sum + selected.counts[s], 0)}</span>
        </Link>
        {STATES.map((state) => (
          <Link key={state} to={at({ page: 1 }, { state })} aria-current={selected.state === state ? "page" : undefined} data-state={state}>
            {t(`assigning.state.${state}`)} <span className="count">{selected.counts[state]}</span>
          </Link>
        ))}
      </nav>
      <ListControls
        id="assignment-people-list"
        label={t("peopleLists.assignment.label")}
        searchLabel={t("peopleLists.search")}
        query={selected.query}
        filters={[
          {
            name: "state",
            label: t("assigning.columns.state"),
            any: t("assigning.people.all"),
            options: STATES.map((s) => ({ value: s, label: t(`assigning.state.${s}`) })),
          },
        ]}
        sorts={ASSIGNMENT_PEOPLE_LIST.sorts.map((s) => ({ value: s, label: t(`peopleLists.assignment.sorts.${s}`) }))}
        errors={selected.errors}
        clear={`${here}#people`}
        hidden={{ assignment: String(row.id) }}
      />
      {selected.people.length === 0 ? (
        selected.filtered ? null : (
          <p className="empty-state">{t("assigning.people.empty")}</p>
        )
      ) : (
        <div className="assignments-scroll">
          <table className="table" data-testid="people">
            <caption className="visually-hidden">{t("assigning.people.caption", { count: selected.total })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("users.name")}</th>
                <th scope="col">{t("assigning.columns.dueOn")}</th>
                <th scope="col">{t("assigning.columns.state")}</th>
                <th scope="col">{t("assigning.columns.doneOn")}</th>
              </tr>
            </thead>
            <tbody>
              {selected.people.map((p) => (
                <tr key={p.userId} data-person={p.email} data-state={p.state}>
                  <td>
                    <span className="user-name">{p.name}</span>
                    <br />
                    <small className="hint">{p.email}</small>
                  </td>
                  <td>{p.dueOn}</td>
                  <td>
                    <StateBadge state={p.state} />
                    {p.leftOn ? <small className="hint"> {t("assigning.people.leftOn", { date: p.leftOn })}</small> : null}
                  </td>
                  <td>{p.completedOn ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {selected.total > 0 || selected.filtered ? (
        <ListPager
          {...selected.page}
          shown={selected.people.length}
          locale={selected.locale}
          link={(n) => at({ page: n })}
          label={t("assigning.people.pages")}
        />
      ) : null}
    </section>
  );
}

function RemoveConfirm({ data }: { data: Data }) {
  const { t } = useTranslation();
  const row = data.removing!;
  const label = data.scope === "course" ? (row.person?.name ?? row.groupName ?? t("assigning.target.deletedGroup")) : row.courseTitle;
  return (
    <div className="panel danger-zone" id="remove" data-testid="remove-confirm">
      <Heading sub={1}>{t("assigning.removeTitle", { name: label })}</Heading>
      <p>{t("assigning.removeExplain", { count: row.assigned })}</p>
      <Form method="post" action={data.here} className="confirm-actions">
        <input type="hidden" name="assignmentId" value={row.id} />
        <button type="submit" name="intent" value="remove" className="danger" data-testid="confirm-remove">
          {t("assigning.removeConfirm")}
        </button>
        <Link to={data.here}>{t("confirm.cancel")}</Link>
      </Form>
    </div>
  );
}

function DueFields({ fields }: { fields: ReturnType<typeof useAssignForm>[1] }) {
  const { t } = useTranslation();
  return (
    <fieldset className="assign-choice assign-due">
      <legend>{t("assigning.form.due")}</legend>
      <div className="assign-option" data-option="date">
        <label className="assign-radio">
          <input
            type="radio"
            name={fields.due.name}
            value="date"
            defaultChecked={fields.due.initialValue !== "days"}
            key={fields.due.key}
          />{" "}
          {t("assigning.form.dueOnDate")}
        </label>
        <div className="field assign-detail" key={fields.dueDate.key}>
          <label htmlFor="assign-due-date">{t("assigning.form.dueDate")}</label>
          <input {...controlProps(fields.dueDate, "assign-due-date")} type="date" data-testid="due-date" />
          <ErrorList id="assign-due-date-error" errors={fields.dueDate.errors} />
        </div>
      </div>
      <div className="assign-option" data-option="days">
        <label className="assign-radio">
          <input
            type="radio"
            name={fields.due.name}
            value="days"
            defaultChecked={fields.due.initialValue === "days"}
            key={fields.due.key}
          />{" "}
          {t("assigning.form.dueAfterDays")}
        </label>
        <div className="field assign-detail" key={fields.dueDays.key}>
          <label htmlFor="assign-due-days">{t("assigning.form.dueDays")}</label>
          <input
            {...controlProps(fields.dueDays, "assign-due-days")}
            type="number"
            min={0}
            max={MAX_DUE_DAYS}
            inputMode="numeric"
            data-testid="due-days"
          />
          <p className="hint">{t("assigning.form.dueDaysHint")}</p>
          <ErrorList id="assign-due-days-error" errors={fields.dueDays.errors} />
        </div>
      </div>
      <ErrorList errors={fields.due.errors} />
    </fieldset>
  );
}

/** One conform form for both screens: the course's (to a person or group) and the group's (a course); the same fields of the due rule. */
function useAssignForm(data: Data, reply: AssignReply | undefined) {
  return useZodForm({
    id: "assign",
    // The two schemas share the due fields; the course's adds the target, the group's the course.
    schema: (data.scope === "course" ? assignFormSchema : assignCourseFormSchema) as typeof assignFormSchema,
    lastResult: reply?.result,
    defaultValue: data.scope === "course" ? { target: "person", due: "date" } : { due: "date" },
  });
}

function AssignForm({ data }: { data: Data }) {
  const { t } = useTranslation();
  const reply = useActionData<AssignReply>();
  const [form, fields] = useAssignForm(data, reply);
  const courseFields = fields as unknown as { courseId: typeof fields.groupId };
  return (
    <Form method="post" action={data.here} className="panel assign-form" data-testid="assign-form" {...getFormProps(form)}>
      <Heading sub={1}>{data.scope === "course" ? t("assigning.form.titleCourse") : t("assigning.form.titleGroup")}</Heading>
      <FormErrors errors={form.errors} />
      {data.scope === "course" ? (
        <fieldset className="assign-choice assign-target">
          <legend>{t("assigning.form.target")}</legend>
          <div className="assign-option" data-option="person">
            <label className="assign-radio">
              <input
                type="radio"
                name={fields.target.name}
                value="person"
                defaultChecked={fields.target.initialValue !== "group"}
                key={fields.target.key}
                data-testid="target-person"
              />{" "}
              {t("assigning.form.toPerson")}
            </label>
            <div className="field assign-detail" key={fields.person.key}>
              <label htmlFor="assign-person">{t("assigning.form.person")}</label>
              <input {...controlProps(fields.person, "assign-person")} maxLength={254} autoComplete="off" data-testid="person" />
              <p className="hint">{t("assigning.form.personHint")}</p>
              <ErrorList id="assign-person-error" errors={fields.person.errors} />
              {reply?.choices?.length ? (
                <fieldset className="assign-people-choices" data-testid="person-choices">
                  <legend>{t("assigning.form.choose")}</legend>
                  {reply.choices.map((p) => (
                    <label key={p.id} className="assign-radio">
                      <input type="radio" name={fields.userId.name} value={p.id} /> {p.name} <small className="hint">{p.email}</small>
                    </label>
                  ))}
                </fieldset>
              ) : null}
            </div>
          </div>
          <div className="assign-option" data-option="group">
            <label className="assign-radio">
              <input
                type="radio"
                name={fields.target.name}
                value="group"
                defaultChecked={fields.target.initialValue === "group"}
                key={fields.target.key}
                data-testid="target-group"
              />{" "}
              {t("assigning.form.toGroup")}
            </label>
            <div className="field assign-detail" key={fields.groupId.key}>
              <label htmlFor="assign-group">{t("assigning.form.group")}</label>
              <select {...controlProps(fields.groupId, "assign-group")} data-testid="group">
                <option value="">{t("assigning.form.chooseGroup")}</option>
                {data.groups.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.ruleGroup ? t("assigning.form.ruleGroupOption", { name: g.name }) : g.name}
                  </option>
                ))}
              </select>
              <p className="hint">{t("assigning.form.groupHint")}</p>
              <ErrorList id="assign-group-error" errors={fields.groupId.errors} />
            </div>
          </div>
          <ErrorList errors={fields.target.errors} />
        </fieldset>
      ) : (
        <div className="field" key={courseFields.courseId.key}>
          <label htmlFor="assign-course">{t("assigning.form.course")}</label>
          <select {...controlProps(courseFields.courseId, "assign-course")} data-testid="course">
            <option value="">{t("assigning.form.chooseCourse")}</option>
            {data.courses.map((c) => (
              <option key={c.id} value={c.id}>
                {c.draft ? t("assigning.form.draftOption", { title: c.title }) : c.title}
              </option>
            ))}
          </select>
          <p className="hint">{t("assigning.form.courseHint")}</p>
          <ErrorList id="assign-course-error" errors={courseFields.courseId.errors} />
        </div>
      )}
      <DueFields fields={fields} />
      <button type="submit" name="intent" value="assign" className="primary" data-testid="assign">
        {t("assigning.form.submit")}
      </button>
    </Form>
  );
}
